/**
 * The benchmark's documentation set, generated deterministically so every run measures the same
 * data: Markdown pages of about 3 KB (heading, prose, a list, a code block, a table) and catalog
 * names. Every `KEYWORD_EVERY`-th page carries a rare keyword that no other page contains, so
 * `item/search` has a known number of hits (20 with 1,000 pages).
 */

/** Matched by substring, case-insensitively: built from letters no vocabulary word contains in this order. */
export const RARE_KEYWORD = 'quirebenchneedle';
export const KEYWORD_EVERY = 50;
export const TARGET_PAGE_BYTES = 3 * 1024;

const WORDS = (
  'api request response token item page catalog member team share export import history ' +
  'version draft editor markdown table column row header field value default optional required ' +
  'string number boolean array object error code message status success failure retry timeout ' +
  'server client browser cache index search filter order limit offset cursor batch queue event ' +
  'lock release notice unread watcher socket room channel document update delete create read ' +
  'write permission owner admin reader visitor password login logout session expire renew sync'
).split(' ');

/** mulberry32: a tiny seeded PRNG (Math.random would make every run's data different). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function words(rand: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  return out.join(' ');
}

function sentence(rand: () => number): string {
  const text = words(rand, 8 + Math.floor(rand() * 10));
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** True for the pages that carry the rare keyword (1-based page numbers). */
export function hasKeyword(pageNumber: number): boolean {
  return pageNumber % KEYWORD_EVERY === 0;
}

export function pageTitle(pageNumber: number): string {
  return `Page ${String(pageNumber).padStart(4, '0')} ${words(seededRandom(pageNumber), 3)}`;
}

/**
 * Markdown of about TARGET_PAGE_BYTES for page `pageNumber`. `variant` changes the prose (the
 * page/save scenario writes new text each time) while the keyword rule stays the same, so search
 * results do not change during the run.
 */
export function pageMarkdown(pageNumber: number, variant = 0): string {
  const rand = seededRandom(pageNumber * 7919 + variant * 104729 + 1);
  const parts: string[] = [
    `# ${pageTitle(pageNumber)}`,
    '',
    `${sentence(rand)} ${sentence(rand)} ${sentence(rand)}`,
    '',
    '## Parameters',
    '',
    '| name | type | required | description |',
    '|---|---|---|---|',
  ];
  for (let i = 0; i < 6; i++)
    parts.push(
      `| ${words(rand, 1)}_${i} | ${words(rand, 1)} | ${rand() < 0.5 ? 'yes' : 'no'} | ${words(rand, 6)} |`,
    );
  parts.push('', '## Example', '', '```json', '{');
  for (let i = 0; i < 6; i++) parts.push(`  "${words(rand, 1)}_${i}": "${words(rand, 3)}",`);
  parts.push('  "end": true', '}', '```', '', '## Notes', '');
  for (let i = 0; i < 5; i++) parts.push(`- ${sentence(rand)}`);
  parts.push('');
  if (hasKeyword(pageNumber)) parts.push(`See also ${RARE_KEYWORD} for the details.`, '');
  let text = parts.join('\n');
  while (text.length < TARGET_PAGE_BYTES) text += `${sentence(rand)} `;
  return `${text.trimEnd()}\n`;
}

/** Catalog names: "Guide 3", "Guide 3.2", "Guide 3.2.4". */
export function catalogName(path: number[]): string {
  return `Guide ${path.join('.')}`;
}
