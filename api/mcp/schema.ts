/** Small builders for the tools' JSON Schemas (ShowDoc declares plain objects of typed properties). */
type Property = Record<string, unknown>;

export const integer = (description: string): Property => ({ type: 'integer', description });
export const string = (description: string, extra: Property = {}): Property => ({
  type: 'string',
  description,
  ...extra,
});

export function objectSchema(
  properties: Record<string, Property>,
  required: string[] = [],
): Record<string, unknown> {
  return { type: 'object', properties, required };
}
