/** The bytes of a stored binary field: the driver hands them back as a BSON Binary (lean) or a Buffer. */
export function storedBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const binary = value as { buffer?: unknown; value?: () => unknown } | null;
  if (binary?.buffer instanceof Uint8Array) return binary.buffer;
  if (typeof binary?.value === 'function') return storedBytes(binary.value());
  return new Uint8Array(0);
}
