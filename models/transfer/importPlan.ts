/**
 * What an import will write, built from the file before anything is written: the item's name,
 * type and description (for an import into a new item) and the pages with their catalog paths.
 * ShowDoc's own export (`info.json`), a Markdown file and a zip of Markdown files are read here;
 * API specifications in importApiSpecs.ts.
 */
import { unescapeFromClient } from '../pages';
import { assertDepth, errors, MAX_INPUT_DEPTH, tooDeep } from '../platform';

/** Catalogs nest three levels deep (levels 2–4). */
export const MAX_CATALOG_DEPTH = 3;

export interface PlannedPage {
  title: string;
  content: string;
  /** Catalog names from the top; [] = the item root. */
  catPath: string[];
  sNumber: number;
  remark: string;
  /** An OpenAPI operation's page: which one, and its response example (contract sync, mocks). */
  endpoint?: { method: string; path: string; responseExample: string };
  /** The page's id in the exported item (ShowDoc exports): a kanban board names its tasks by it. */
  sourceId?: string;
}

export interface ImportPlan {
  /** What the file is, for the answer and the logs. */
  source: 'showdoc' | 'markdown' | 'markdown-zip' | 'openapi' | 'postman';
  itemName: string;
  itemType: number;
  itemDescription: string;
  pages: PlannedPage[];
  /** Things the user should know (folded folders, skipped entries). */
  notes: string[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function order(value: unknown): number {
  const n = Number.parseInt(text(value), 10);
  return Number.isSafeInteger(n) && n > 0 ? n : 99;
}

/** Keeps at most three catalog levels; deeper names are folded into the third. */
function foldPath(path: string[], notes: Set<string>): string[] {
  if (path.length <= MAX_CATALOG_DEPTH) return path;
  notes.add(path.join('/'));
  return path.slice(0, MAX_CATALOG_DEPTH);
}

function foldNote(folded: Set<string>): string[] {
  if (!folded.size) return [];
  return [
    `Catalogs nest at most ${MAX_CATALOG_DEPTH} levels: ${[...folded].join(', ')} ` +
      `were folded into their third-level catalog`,
  ];
}

interface ShowdocNode {
  cat_name?: unknown;
  pages?: unknown;
  catalogs?: unknown;
}

/** ShowDoc's `info.json` (its export and Quire's): page text escaped once, decoded here. */
export function planFromShowdocInfo(raw: string): ImportPlan {
  let info: Record<string, unknown>;
  try {
    info = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw errors.failed('info.json in the zip is not valid JSON');
  }
  if (!info || typeof info !== 'object') throw errors.failed('info.json is empty');
  assertDepth(info, 'info.json in the zip');
  const pages: PlannedPage[] = [];
  const folded = new Set<string>();
  const addPages = (list: unknown, path: string[]) => {
    if (!Array.isArray(list)) return;
    for (const page of list as Record<string, unknown>[]) {
      if (!page || typeof page !== 'object') continue;
      pages.push({
        title: unescapeFromClient(text(page.page_title)).trim() || 'Untitled',
        content: unescapeFromClient(text(page.page_content)),
        catPath: foldPath(path, folded),
        sNumber: order(page.s_number),
        remark: unescapeFromClient(text(page.page_comments)),
        ...(text(page.page_id) ? { sourceId: text(page.page_id) } : {}),
      });
    }
  };
  // Depth first in document order, with a stack of its own rather than the call stack.
  const stack: [ShowdocNode, string[]][] = [[(info.pages ?? {}) as ShowdocNode, []]];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    addPages(node.pages, path);
    if (!Array.isArray(node.catalogs)) continue;
    const children = (node.catalogs as ShowdocNode[]).filter(
      (cat) => cat && typeof cat === 'object',
    );
    for (const cat of children.reverse())
      stack.push([cat, [...path, unescapeFromClient(text(cat.cat_name)).trim() || 'Catalog']]);
  }
  const type = Number(info.item_type);
  return {
    source: 'showdoc',
    itemName: unescapeFromClient(text(info.item_name)).trim(),
    itemType: [1, 2, 3, 4, 5, 6].includes(type) ? type : 1,
    itemDescription: unescapeFromClient(text(info.item_description)),
    pages,
    notes: foldNote(folded),
  };
}

function stem(fileName: string): string {
  return fileName.replace(/\.(md|markdown)$/i, '');
}

/** One Markdown file → one page titled after the file. */
export function planFromMarkdownFile(fileName: string, content: string): ImportPlan {
  const title = stem(fileName).trim() || 'Untitled';
  return {
    source: 'markdown',
    itemName: title,
    itemType: 1,
    itemDescription: '',
    pages: [{ title, content, catPath: [], sNumber: 99, remark: '' }],
    notes: [],
  };
}

export function isMarkdownPath(path: string): boolean {
  const base = path.split('/').pop() ?? '';
  return /\.(md|markdown)$/i.test(base) && !base.startsWith('.') && !path.startsWith('__MACOSX/');
}

/** A zip of Markdown files: folders become catalogs (three levels at most), files pages. */
export function planFromMarkdownZip(
  zipName: string,
  files: { path: string; content: string }[],
): ImportPlan {
  const folded = new Set<string>();
  const sorted = [...files].sort((a, b) => a.path.localeCompare(b.path));
  const pages = sorted.map((file) => {
    const parts = file.path.split('/').filter(Boolean);
    if (parts.length > MAX_INPUT_DEPTH) throw tooDeep('A folder in the zip');
    const base = parts.pop() ?? '';
    return {
      title: stem(base).trim() || 'Untitled',
      content: file.content,
      catPath: foldPath(parts, folded),
      sNumber: 99,
      remark: '',
    };
  });
  return {
    source: 'markdown-zip',
    itemName: zipName.replace(/\.zip$/i, '').trim(),
    itemType: 1,
    itemDescription: '',
    pages,
    notes: foldNote(folded),
  };
}
