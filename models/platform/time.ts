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
const clock = perContext((): { zone?: string; formatter?: Intl.DateTimeFormat } => ({}));

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
  const parts: Record<string, string> = {};
  for (const part of getFormatter().formatToParts(new Date(Number(seconds || 0) * 1000)))
    parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Like formatUnix, but '' for 0 (admin lists show never-set times as empty). */
export function formatUnixOrEmpty(seconds: number): string {
  return seconds ? formatUnix(seconds) : '';
}

/** The current time formatted (for the tables that store datetime strings). */
export function formatNow(): string {
  return formatUnix(Math.floor(Date.now() / 1000));
}
