import { afterAll, expect, test } from '@jest/globals';
import { formatUnix, formatUnixOrEmpty, setTimeZone } from '../../../models/platform/time';

/** What Intl prints for that instant in that zone, the way ShowDoc's times read. */
function intl(zone: string, seconds: number): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  for (const part of format.formatToParts(new Date(seconds * 1000))) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

afterAll(() => setTimeZone('Asia/Shanghai'));

test('times print as the zone reads them, across daylight-saving changes and odd offsets', () => {
  // New York's and London's spring and autumn changes, Lord Howe's half-hour one, Kathmandu's
  // +5:45, St John's −3:30, and a century of instants for each.
  const changes = [1710054000, 1730613600, 1711846800, 1729990800, 1712412000, 1728142200];
  for (const zone of [
    'Asia/Shanghai',
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
  ]) {
    setTimeZone(zone);
    const printed: string[] = [];
    const expected: string[] = [];
    for (const change of changes)
      for (let s = change - 3700; s <= change + 3700; s += 37) {
        printed.push(formatUnix(s));
        expected.push(intl(zone, s));
      }
    for (let s = -1_000_000_000; s < 4_000_000_000; s += 9_999_991) {
      printed.push(formatUnix(s));
      expected.push(intl(zone, s));
    }
    expect({ zone, printed }).toEqual({ zone, printed: expected });
  }
});

test('0 prints the epoch in the zone (ShowDoc does), and formatUnixOrEmpty leaves it empty', () => {
  setTimeZone('Asia/Shanghai');
  expect(formatUnix(0)).toBe('1970-01-01 08:00:00');
  expect(formatUnixOrEmpty(0)).toBe('');
  expect(formatUnix(1700000000)).toBe('2023-11-15 06:13:20');
});
