/**
 * ShowDoc's formatted times: `YYYY-MM-DD HH:MM:SS` in the server time zone (APP_TIMEZONE,
 * default Asia/Shanghai). Stored times are Unix seconds; a few tables (item_group, item_star,
 * item_change_log) store the formatted string itself, as ShowDoc does.
 *
 * The zone is read from APP_TIMEZONE once; the process entry may set it explicitly from the
 * validated config with `setTimeZone` (config validation already rejected unknown zones).
 */
import { perContext } from './context';

/** The clock every stored time comes from: Unix seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The instance's zone and its formatter (per context: two instances may differ). */
const clock = perContext(
  (): {
    zone?: string;
    formatter?: Intl.DateTimeFormat;
    offsets?: Map<number, number | null>;
  } => ({}),
);

function validZone(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    return undefined;
  }
}

export function setTimeZone(timeZone: string): void {
  const state = clock();
  state.zone = validZone(timeZone) ?? 'Asia/Shanghai';
  state.formatter = undefined;
  state.offsets = undefined;
}

function getFormatter(): Intl.DateTimeFormat {
  const state = clock();
  if (!state.formatter) {
    state.zone ??= validZone(process.env.APP_TIMEZONE) ?? 'Asia/Shanghai';
    state.formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: state.zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
  }
  return state.formatter;
}

/** Unix seconds → `YYYY-MM-DD HH:MM:SS` in the server zone (0 → the epoch, as ShowDoc prints it). */
export function formatUnix(seconds: number): string {
  const at = Number(seconds || 0);
  if (!Number.isFinite(at)) return formatWithIntl(at);
  // Every row of every list prints its times, and Intl's formatToParts costs microseconds each:
  // the zone's offset is looked up once per quarter hour (zone changes fall on quarter hours;
  // a quarter that holds one is formatted by Intl) and the digits are arithmetic.
  const offset = offsetAt(Math.floor(at));
  if (offset === null) return formatWithIntl(at);
  const local = new Date((Math.floor(at) + offset) * 1000);
  const year = local.getUTCFullYear();
  if (year < 1000 || year > 9999) return formatWithIntl(at);
  return `${year}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(
    local.getUTCHours(),
  )}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

function formatWithIntl(seconds: number): string {
  const parts: Record<string, string> = {};
  for (const part of getFormatter().formatToParts(new Date(seconds * 1000)))
    parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const QUARTER = 900;
const MAX_OFFSETS = 4096;

/** The zone's offset from UTC in seconds over `at`'s quarter hour; null when it changes inside. */
function offsetAt(at: number): number | null {
  const state = clock();
  const quarter = Math.floor(at / QUARTER);
  const cache = (state.offsets ??= new Map());
  const known = cache.get(quarter);
  if (known !== undefined) return known;
  const start = quarter * QUARTER;
  const first = intlOffset(start);
  const offset = intlOffset(start + QUARTER - 1) === first ? first : null;
  if (cache.size >= MAX_OFFSETS) cache.clear();
  cache.set(quarter, offset);
  return offset;
}

/** What Intl says the zone's wall clock reads at `at`, minus `at`. */
function intlOffset(at: number): number {
  const parts: Record<string, string> = {};
  for (const part of getFormatter().formatToParts(new Date(at * 1000)))
    parts[part.type] = part.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round(wall / 1000) - at;
}

/** Like formatUnix, but '' for 0 (admin lists show never-set times as empty). */
export function formatUnixOrEmpty(seconds: number): string {
  return seconds ? formatUnix(seconds) : '';
}

/** The current time formatted (for the tables that store datetime strings). */
export function formatNow(): string {
  return formatUnix(Math.floor(Date.now() / 1000));
}
