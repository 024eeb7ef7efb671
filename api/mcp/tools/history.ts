/**
 * Page history tools (ShowDoc's PageHandler): versions, one version, a line diff of two, and a
 * restore — through models/pages (the restore is a save: the current text becomes a version).
 */
import { listVersions, pageAndVersion } from '../../../models/pages';
import type { PageHistoryDoc } from '../../../models/pages';
import { formatUnix } from '../../../models/platform';
import { attempt, pageFor } from '../access';
import { idArg, intArg } from '../args';
import { writePage } from '../pageWrite';
import { integer, objectSchema } from '../schema';
import { defineTools, MCP_ERRORS, type McpCaller, McpToolError } from '../toolkit';

const pageId = integer('Page ID');

async function versionOf(
  caller: McpCaller,
  page: number,
  version: number,
): Promise<PageHistoryDoc> {
  try {
    return (await pageAndVersion(caller.actor, page, version)).version;
  } catch {
    throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'History version not found');
  }
}

type DiffLine = { type: 'added' | 'removed'; line: number; content: string };

/** ShowDoc's line-by-line comparison (same line numbers compared, no alignment). */
function lineDiff(before: string, after: string) {
  const a = before.split('\n');
  const b = after.split('\n');
  const changes: DiffLine[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const oldLine = a[i] ?? '';
    const newLine = b[i] ?? '';
    if (oldLine === newLine) continue;
    if (i < a.length && oldLine !== '')
      changes.push({ type: 'removed', line: i + 1, content: oldLine });
    if (i < b.length && newLine !== '')
      changes.push({ type: 'added', line: i + 1, content: newLine });
  }
  return {
    changes,
    summary: {
      added: changes.filter((c) => c.type === 'added').length,
      removed: changes.filter((c) => c.type === 'removed').length,
    },
  };
}

export const historyTools = defineTools(
  {
    name: 'get_page_history',
    description: "A page's change history (kanban task pages too)",
    inputSchema: objectSchema(
      { page_id: pageId, limit: integer('Most versions to return (default 20, at most 100)') },
      ['page_id'],
    ),
    write: false,
    async handler(caller, args) {
      const id = idArg(args, 'page_id');
      await pageFor(caller, id, 'read');
      const limit = Math.min(100, Math.max(1, intArg(args, 'limit', 20, 0)));
      const rows = await attempt(() => listVersions(caller.actor, id));
      const history = rows.slice(0, limit).map((row) => ({
        version_id: row.page_history_id,
        author: row.author_username,
        author_uid: row.author_uid,
        updated_at: formatUnix(row.addtime),
        change_summary: row.page_comments ?? '',
      }));
      return { page_id: id, history, total: history.length };
    },
  },
  {
    name: 'get_page_version',
    description: 'The content of one version of a page (kanban task pages too)',
    inputSchema: objectSchema({ page_id: pageId, version_id: integer('Version ID') }, [
      'page_id',
      'version_id',
    ]),
    write: false,
    async handler(caller, args) {
      const id = idArg(args, 'page_id');
      const versionId = idArg(args, 'version_id');
      const { access } = await pageFor(caller, id, 'read');
      const version = await versionOf(caller, id, versionId);
      return {
        page_id: id,
        version_id: versionId,
        page_title: version.page_title,
        item_id: access.item.item_id,
        type: access.item.item_type === 3 ? 'runapi' : 'markdown',
        content: version.page_content,
        author: version.author_username,
        author_uid: version.author_uid,
        updated_at: formatUnix(version.addtime),
        change_summary: version.page_comments ?? '',
      };
    },
  },
  {
    name: 'diff_page_versions',
    description: 'Compare two versions of a page line by line (kanban task pages too)',
    inputSchema: objectSchema(
      {
        page_id: pageId,
        version_id_1: integer('First version ID'),
        version_id_2: integer('Second version ID'),
      },
      ['page_id', 'version_id_1', 'version_id_2'],
    ),
    write: false,
    async handler(caller, args) {
      const id = idArg(args, 'page_id');
      const first = idArg(args, 'version_id_1');
      const second = idArg(args, 'version_id_2');
      await pageFor(caller, id, 'read');
      const [a, b] = [await versionOf(caller, id, first), await versionOf(caller, id, second)];
      const summary = (v: PageHistoryDoc, versionId: number) => ({
        version_id: versionId,
        author: v.author_username,
        updated_at: formatUnix(v.addtime),
      });
      return {
        page_id: id,
        version_1: summary(a, first),
        version_2: summary(b, second),
        diff: lineDiff(a.page_content, b.page_content),
      };
    },
  },
  {
    name: 'restore_page_version',
    description:
      'Restore a page to one of its versions (the current text is kept as a version first; kanban task pages too)',
    inputSchema: objectSchema(
      { page_id: pageId, version_id: integer('The version ID to restore') },
      ['page_id', 'version_id'],
    ),
    write: true,
    async handler(caller, args) {
      const id = idArg(args, 'page_id');
      const versionId = idArg(args, 'version_id');
      const { page, access } = await pageFor(caller, id, 'write');
      const version = await versionOf(caller, id, versionId);
      const saved = await writePage(caller, access, {
        existing: page,
        title: version.page_title || page.page_title,
        content: version.page_content,
        catId: page.cat_id,
        origin: 'history',
      });
      return {
        page_id: id,
        version_id: versionId,
        item_id: saved.item_id,
        page_title: saved.page_title,
        restored_at: formatUnix(saved.addtime),
        message: 'The page is restored to this version; its previous text was kept as a version',
      };
    },
  },
);
