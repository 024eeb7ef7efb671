/**
 * `exportHtml/export` (ShowDoc's ExportHtmlController): an item as an offline HTML package — a
 * zip with `index.html` (the item and its catalog tree), one `pages/page-<id>.html` per page,
 * the stylesheet, the item's pictures and attachments the pages refer to, and a README. As in
 * ShowDoc: editors only (10103 otherwise, also for an unknown item), regular, RunApi and
 * whiteboard items only, a member limited to some catalogs gets just those, and one user may
 * build at most DAILY_LIMIT packages a day. Unlike ShowDoc, pages are sanitised by a real
 * sanitiser, and no password, member or token is written into the package.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';
import { type Actor } from '../access';
import { filesForExport } from '../files';
import { errors, formatNow } from '../platform';
import { safeFileName } from './exportMarkdown';
import { logItemExport, exportTree, treePages, type ExportTree } from './exportTree';
import {
  COMMON_CSS,
  escapeHtml,
  fileSignsOf,
  htmlDocument,
  navTree,
  pagePath,
  readme,
  renderPageBody,
} from './offlineHtml';
import { runapiToMarkdown } from './runapiMarkdown';
import { ExportLog } from './schemas';

/** Packages one user may build per day (ShowDoc's figure). */
export const DAILY_LIMIT = 100;
/** Item types with an HTML export in ShowDoc: regular (0 reads as 1), RunApi, whiteboard. */
const EXPORTABLE_TYPES = new Set([0, 1, 3, 5]);
/** Attachment bytes packed at most; files past it stay links to the site. */
const MAX_FILE_BYTES = 200 * 1024 * 1024;

export interface HtmlExport {
  fileName: string;
  zip: Uint8Array;
}

async function exportsToday(uid: number): Promise<number> {
  const dayStart = `${formatNow().slice(0, 10)} 00:00:00`;
  return ExportLog.countDocuments({ uid, export_type: 'html', addtime: { $gte: dayStart } });
}

async function packedFiles(actor: Actor, sources: string[], files: Zippable) {
  const paths = new Map<string, string>();
  const found = await filesForExport(actor, sources.flatMap(fileSignsOf), MAX_FILE_BYTES);
  for (const file of found) {
    const name = file.displayName || file.sign;
    const ext = /\.[A-Za-z0-9]{1,10}$/.exec(name)?.[0] ?? '';
    const stem = safeFileName(name.slice(0, name.length - ext.length));
    const path = `assets/uploads/${file.sign}/${stem}${ext.toLowerCase()}`;
    files[path] = new Uint8Array(file.bytes);
    paths.set(file.sign, path);
  }
  return paths;
}

function indexBody(item: { item_name: string; item_description?: string }, tree: ExportTree) {
  const description = item.item_description
    ? `<p class="description">${escapeHtml(item.item_description)}</p>`
    : '';
  return `<h1>${escapeHtml(item.item_name)}</h1>${description}${navTree(tree, '')}`;
}

export async function exportHtml(actor: Actor, itemId: number): Promise<HtmlExport> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(itemId > 0)) throw errors.noPermission('No permission');
  const { access, tree } = await exportTree(actor, { itemId }, 'item.exportHtml');
  const item = access.item;
  if ((await exportsToday(actor.uid)) >= DAILY_LIMIT)
    throw errors.refused(
      `To spare the server, one account may export at most ${DAILY_LIMIT} HTML packages a day`,
    );
  if (!EXPORTABLE_TYPES.has(item.item_type))
    throw errors.failed('This item type has no HTML export');
  const pages = treePages(tree);
  if (!pages.length) throw errors.failed('There are no pages to export');

  const sources = pages.map((page) =>
    item.item_type === 3
      ? (runapiToMarkdown(page.page_content) ?? page.page_content)
      : page.page_content,
  );
  const files: Zippable = {};
  const packed = await packedFiles(actor, sources, files);
  pages.forEach((page, i) => {
    const body = renderPageBody(sources[i], (sign) => {
      const path = packed.get(sign);
      return path ? `../${path}` : undefined;
    });
    files[pagePath(page)] = strToU8(
      htmlDocument({
        title: `${page.page_title} - ${item.item_name}`,
        itemName: item.item_name,
        prefix: '../',
        nav: navTree(tree, '../', page.page_id),
        body: `<h1 class="page-title">${escapeHtml(page.page_title)}</h1><article>${body}</article>`,
      }),
    );
  });
  files['index.html'] = strToU8(
    htmlDocument({
      title: item.item_name,
      itemName: item.item_name,
      prefix: '',
      nav: navTree(tree, ''),
      body: indexBody(item, tree),
    }),
  );
  files['assets/css/common.css'] = strToU8(COMMON_CSS);
  const exportedAt = formatNow();
  files['README.txt'] = strToU8(readme(item.item_name, exportedAt));
  const zip = zipSync(files, { level: 6 });

  await ExportLog.create({
    uid: actor.uid,
    export_type: 'html',
    item_id: item.item_id,
    addtime: exportedAt,
  });
  await logItemExport(actor, item);
  const stamp = exportedAt.replace(/\D/g, '');
  return { fileName: `showdoc_offline_${safeFileName(item.item_name)}_${stamp}.zip`, zip };
}
