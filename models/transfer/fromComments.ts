/**
 * `open/fromComments` (ShowDoc's FromCommentsController): API pages from code comments. A script
 * (ShowDoc's `showdoc_api.sh`) posts source text; every `/** … *\/` block that mentions `showdoc`
 * and has an `@title` becomes one page, found again by title + catalog on the next run. The tags
 * are read exactly as ShowDoc reads them, quirks included (a single-line tag takes the rest of its
 * first matching line; a multi-line tag's values are split on whitespace), so existing comment
 * blocks produce the same pages.
 */
import { Item } from '../items';
import { escapeForClient, Page, type PageDoc, unescapeFromClient } from '../pages';
import { catalogForPath, savePageByTitle, type KeyHolder } from './openApi';
import {
  emptyRunApiDoc,
  indentJson,
  phpJson,
  runapiToMarkdown,
  type RunApiDoc,
  type RunApiParam,
} from './runapiMarkdown';

/** PHP `trim`'s characters (String.prototype.trim also strips Unicode spaces, PHP does not). */
const PHP_SPACE = ' \t\n\r\0\u000b';

function phpTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PHP_SPACE.includes(text[start])) start++;
  while (end > start && PHP_SPACE.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** `@tag rest-of-line` (first occurrence); false when absent, as ShowDoc's parseOneLine. */
function oneLine(tag: string, block: string): string | false {
  const match = new RegExp(`@${escapeRegExp(tag)}.+`).exec(block);
  if (!match) return false;
  return phpTrim(match[0].split(`@${tag}`).join(''));
}

/** Every `@tag v1 v2 …` piece, split on whitespace, as ShowDoc's parseMultiLine. */
function multiLine(tag: string, block: string): string[][] {
  const out: string[][] = [];
  for (const piece of block.split('@')) {
    const words = phpTrim(piece).split(/[ \t\n\v\f\r]+/);
    if (words[0] && words[0] === tag) out.push(words.slice(1));
  }
  return out;
}

export interface CommentDoc {
  title: string | false;
  method: string | false;
  description: string | false;
  url: string | false;
  catName: string | false;
  returnExample: string;
  params: string[][];
  headers: string[][];
  returnParams: string[][];
  remark: string | false;
  number: string | false;
  jsonParam: string;
}

export function parseCommentBlock(block: string): CommentDoc {
  return {
    title: oneLine('title', block),
    method: oneLine('method', block),
    description: oneLine('description', block),
    url: oneLine('url', block),
    catName: oneLine('catalog', block),
    returnExample: unescapeFromClient(oneLine('return', block) || ''),
    params: multiLine('param', block),
    headers: multiLine('header', block),
    returnParams: multiLine('return_param', block),
    remark: oneLine('remark', block),
    number: oneLine('number', block),
    jsonParam: unescapeFromClient(oneLine('json_param', block) || ''),
  };
}

/** The `/** … *\/` blocks of a source text that ShowDoc would turn into pages. */
export function commentBlocks(source: string): string[] {
  const blocks = source.match(/\/\*\*[\s\S]*?\*\//g) ?? [];
  return blocks.filter((b) => b.includes('@title') && b.includes('showdoc'));
}

function param(words: string[]): RunApiParam {
  return {
    name: words[0] ?? '',
    require: words[1] === '必选' ? '1' : '0',
    type: words[2] ?? '',
    value: '',
    remark: words[3] ?? '',
  };
}

/** ShowDoc's `toRunapiFormat`. */
export function commentToRunApi(doc: CommentDoc): RunApiDoc {
  // A block without @method gets '' (ShowDoc lower-cases `false`), so its params go to the body.
  const method = (doc.method || '').toLowerCase();
  const api = emptyRunApiDoc();
  api.info = {
    from: 'runapi',
    type: 'api',
    title: doc.title,
    description: doc.description,
    method,
    url: doc.url,
    remark: doc.remark,
  };
  api.response.responseExample = doc.returnExample
    ? indentJsonOrSelf(doc.returnExample)
    : doc.returnExample;
  for (const words of doc.headers) api.request.headers.push(param(words));
  if (doc.jsonParam) {
    api.request.params.mode = 'json';
    api.request.params.json = doc.jsonParam;
    if (doc.params.length) api.request.params.jsonDesc = doc.params.map(param);
  }
  if (doc.params.length) {
    if (method === 'get') {
      let queryString = '';
      for (const words of doc.params) {
        api.request.query.push(param(words));
        queryString += `${words[0] ?? ''}=&`;
      }
      const url = api.info.url || '';
      api.info.url = url + (url.includes('?') ? '&' : '?') + queryString;
    } else {
      api.request.params.formdata = doc.params.map(param);
    }
  }
  api.response.responseParamsDesc = doc.returnParams.map((words) => ({
    name: words[0] ?? '',
    type: words[1] ?? '',
    value: '',
    remark: words[2] ?? '',
  }));
  return api;
}

/** FromComments' own indentJson: pretty when it parses to something other than null. */
function indentJsonOrSelf(text: string): string {
  try {
    if (JSON.parse(text) === null) return text;
  } catch {
    return text;
  }
  return indentJson(text);
}

function keepValues(existing: RunApiParam[] | undefined, next: RunApiParam[] | undefined): void {
  if (!existing?.length || !next?.length) return;
  const values = new Map<string, string>();
  for (const p of existing) if (p?.name) values.set(p.name, p.value ?? '');
  for (const p of next) {
    const value = values.get(p.name);
    if (p.name && value) p.value = value;
  }
}

/**
 * RunApi items keep what users typed into the page (example values, response remarks) when the
 * comments are synced again (ShowDoc's preserveExistingValues).
 */
function preserveExisting(existingContent: string, next: RunApiDoc): RunApiDoc {
  let old: RunApiDoc;
  try {
    old = JSON.parse(existingContent) as RunApiDoc;
  } catch {
    return next;
  }
  if (!old || typeof old !== 'object' || !old.request) return next;
  keepValues(old.request.headers, next.request.headers);
  keepValues(old.request.query, next.request.query);
  keepValues(old.request.params?.formdata, next.request.params.formdata);
  keepValues(old.request.params?.jsonDesc, next.request.params.jsonDesc);
  keepValues(old.request.params?.urlencoded, next.request.params.urlencoded);
  const oldDesc = old.response?.responseParamsDesc ?? [];
  const nextDesc = next.response.responseParamsDesc ?? [];
  const kept = new Map(oldDesc.filter((p) => p?.name).map((p) => [p.name, p]));
  for (const p of nextDesc) {
    const was = kept.get(p.name);
    if (!p.name || !was) continue;
    if (was.value) p.value = was.value;
    if (was.remark) p.remark = was.remark;
  }
  return next;
}

/**
 * Syncs every comment block of `source` into the key's item. Returns the pages written (empty
 * when no block qualified). Content arrives as ShowDoc's script sends it: HTML entities and
 * `_this_and_change_` (its stand-in for `&`) are decoded once.
 */
export async function pagesFromComments(holder: KeyHolder, source: string): Promise<PageDoc[]> {
  const text = unescapeFromClient(source).split('_this_and_change_').join('&');
  const item = await Item.findOne({ item_id: holder.itemId }, { item_type: 1, _id: 0 }).lean<{
    item_type: number;
  }>();
  const saved: PageDoc[] = [];
  for (const block of commentBlocks(text)) {
    const doc = parseCommentBlock(block);
    let api = commentToRunApi(doc);
    const title = doc.title || '';
    const catPath = doc.catName || '';
    let content: string | null;
    if (item?.item_type === 3) {
      const catId = await catalogForPath(holder, catPath);
      const existing = await Page.findOne(
        { item_id: holder.itemId, cat_id: catId, page_title: title, is_del: 0 },
        { page_content: 1, _id: 0 },
      ).lean<{ page_content: string }>();
      if (existing) api = preserveExisting(existing.page_content, api);
      content = phpJson(api);
    } else {
      content = runapiToMarkdown(api);
    }
    const sNumber =
      doc.number && Number.parseInt(doc.number, 10) > 0 ? parseInt(doc.number, 10) : 99;
    saved.push(
      // savePageByTitle decodes entities once (script input); generated text must stay as is.
      await savePageByTitle(holder, {
        title,
        content: escapeForClient(content ?? ''),
        catPath,
        sNumber,
      }),
    );
  }
  return saved;
}
