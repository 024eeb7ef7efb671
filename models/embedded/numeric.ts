/**
 * Exact arithmetic for `$inc` / `$mul` when a Long beyond 2^53 or a Decimal128 is involved
 * (mingo would do float arithmetic on objects, or nothing at all). Decimals are added and
 * multiplied as scaled BigInts, so 0.1 + 0.2 is exactly 0.3 as in MongoDB.
 */
import { Decimal128, Long } from 'bson';

type Kind = 'number' | 'long' | 'decimal' | 'other';

export function numericKind(v: unknown): Kind {
  if (typeof v === 'number') return 'number';
  const t = (v as { _bsontype?: string } | null)?._bsontype;
  if (t === 'Long') return 'long';
  if (t === 'Decimal128') return 'decimal';
  return 'other';
}

interface Scaled {
  digits: bigint;
  scale: number;
}

function toScaled(v: unknown): Scaled {
  const text = numericKind(v) === 'long' ? (v as Long).toString() : String(v);
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not a finite number: ${text}`);
  const [, sign, int = '', frac = '', exp = '0'] = match;
  let digits = BigInt(`${sign}${int || '0'}${frac}`);
  let scale = frac.length - Number(exp);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

function align(a: Scaled, b: Scaled): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [
    a.digits * 10n ** BigInt(scale - a.scale),
    b.digits * 10n ** BigInt(scale - b.scale),
    scale,
  ];
}

function toDecimal(digits: bigint, scale: number): Decimal128 {
  const negative = digits < 0n;
  let text = (negative ? -digits : digits).toString();
  if (scale > 0) {
    text = text.padStart(scale + 1, '0');
    text = `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`;
  }
  return Decimal128.fromString(`${negative ? '-' : ''}${text}`);
}

/** True when plain float arithmetic would be wrong for these operands. */
export function needsExactArithmetic(current: unknown, operand: unknown): boolean {
  const kinds = [numericKind(current), numericKind(operand)];
  return kinds.includes('decimal') || kinds.includes('long');
}

/** `current (+|×) operand` with MongoDB's result type: decimal wins, then long, then number. */
export function exactArithmetic(op: '$inc' | '$mul', current: unknown, operand: unknown): unknown {
  const base = current === undefined ? 0 : current;
  const kinds = [numericKind(base), numericKind(operand)];
  if (kinds.includes('decimal')) {
    const a = toScaled(base);
    const b = toScaled(operand);
    if (op === '$inc') {
      const [x, y, scale] = align(a, b);
      return toDecimal(x + y, scale);
    }
    return toDecimal(a.digits * b.digits, a.scale + b.scale);
  }
  const x = BigInt(
    numericKind(base) === 'long' ? (base as Long).toString() : Math.trunc(Number(base)).toString(),
  );
  if (
    (numericKind(base) === 'number' && !Number.isInteger(base)) ||
    (numericKind(operand) === 'number' && !Number.isInteger(operand))
  ) {
    return op === '$inc' ? Number(base) + Number(operand) : Number(base) * Number(operand);
  }
  const y = BigInt(
    numericKind(operand) === 'long' ? (operand as Long).toString() : String(operand),
  );
  const result = op === '$inc' ? x + y : x * y;
  return Long.fromBigInt(BigInt.asIntN(64, result));
}
