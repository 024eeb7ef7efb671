/**
 * `export/markdown`: ShowDoc's zip layout — one `.md` file per page in folders named after the
 * catalogs, plus `info.json` (item type, name, description and the page tree, as ShowDoc writes
 * it: page text HTML-escaped, which ShowDoc's and Quire's importers decode once). Unlike ShowDoc,
 * no password, member or token goes into the file. RunApi items have no Markdown export.
 */
import type { Zippable } from 'fflate';
import { type Actor } from '../access';
import { escapeForClient } from '../pages';
import { errors } from '../platform';
import { logItemExport, exportTree, type ExportCatalog, type ExportTree } from './exportTree';

const RESERVED = new Set([
  'CON',
  'PRN',
  'AUX',
  'NUL',
  ...Array.from({ length: 9 }, (_, i) => `COM${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `LPT${i + 1}`),
]);

/** ShowDoc's `FileHelper::sanitizeFilename`. */
export function safeFileName(name: string): string {
  let out = name
    .trim()
    // eslint-disable-next-line no-control-regex
    .replace(/[<>:"/\\|?*\x00-\x1f]/g, '_')
    .replace(/[_.]+/g, '_')
    .replace(/^[_.]+|[_.]+$/g, '');
  if (!out) out = '未命名';
  if (RESERVED.has(out.toUpperCase())) out += '_';
  return [...out].slice(0, 200).join('');
}

function escapedTree(tree: ExportTree): ExportTree {
  const pages = (list: ExportTree['pages']) =>
    list.map((p) => ({
      ...p,
      page_title: p.page_title,
      page_content: escapeForClient(p.page_content),
      page_comments: escapeForClient(p.page_comments),
    }));
  const cat = (c: ExportCatalog): ExportCatalog => ({
    ...c,
    pages: pages(c.pages),
    catalogs: c.catalogs.map(cat),
  });
  return { pages: pages(tree.pages), catalogs: tree.catalogs.map(cat) };
}

/** Adds the pages and sub-folders of one level, numbering clashing names as ShowDoc does. */
function addLevel(files: Zippable, taken: Set<string>, base: string, level: ExportTree): void {
  const unique = (stem: string, ext: string) => {
    let name = `${stem}${ext}`;
    for (let n = 1; taken.has(base + name); n++) name = `${stem}_${n}${ext}`;
    taken.add(base + name);
    return name;
  };
  for (const page of level.pages) {
    const name = unique(safeFileName(page.page_title || '未命名'), '.md');
    files[base + name] = Buffer.from(page.page_content);
  }
  for (const cat of level.catalogs) {
    const dir = unique(safeFileName(cat.cat_name || '目录'), '');
    addLevel(files, taken, `${base}${dir}/`, cat);
  }
}

export interface MarkdownExport {
  fileName: string;
  zip: Uint8Array;
}

/** The whole item, or (Quire's addition) one catalog with its sub-catalogs when `catId` > 0. */
export async function exportMarkdown(
  actor: Actor,
  itemId: number,
  catId = 0,
): Promise<MarkdownExport> {
  const { access, tree } = await exportTree(actor, { itemId, catId });
  const item = access.item;
  if (item.item_type === 3)
    throw errors.failed('RunApi items have no Markdown export; export Word instead');
  const info = {
    item_type: item.item_type,
    item_name: item.item_name,
    item_description: item.item_description ?? '',
    pages: escapedTree(tree),
  };
  const files: Zippable = { 'info.json': Buffer.from(JSON.stringify(info)) };
  addLevel(files, new Set(['info.json']), '', tree);
  await logItemExport(actor, item);
  // fflate loads with the first export, not when a process starts.
  const { zipSync } = await import('fflate');
  return { fileName: 'showdoc.zip', zip: zipSync(files, { level: 6 }) };
}
