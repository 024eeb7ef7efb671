/**
 * The file hub's clean-up for site admins (ShowDoc's `attachment/getUnusedList` and
 * `attachment/batchDeleteAttachments`): files no live page uses, and deleting many at once.
 *
 * ShowDoc calls a file unused when no live page's content contains its sign. Quire reads every
 * live page's content once and collects the signs it mentions (a sign is 32 hex characters),
 * instead of one LIKE scan per file; and, stricter for safety, a file bound to a live page as an
 * attachment counts as used too, so the clean-up never empties a page's attachment list.
 */
import { type Actor, isSiteAdmin } from '../access';
import { destroyFile, findFile } from './attachments';
import { errors } from '../platform';
import { FilePage } from './schemas/filePage';
import { Page } from '../pages';
import { UploadFile, type UploadFileDoc } from './schemas/uploadFile';
import { User } from '../accounts';

const SIGN = /[0-9a-f]{32}/gi;
const MAX_COUNT = 100;
/** Ids accepted in one batch delete. */
export const MAX_BATCH = 500;

export interface UnusedFilter {
  page: number;
  count: number;
  displayName: string;
  username: string;
}

async function signsInUse(): Promise<Set<string>> {
  const used = new Set<string>();
  const cursor = Page.find({ is_del: 0 }, { page_content: 1, _id: 0 }).lean().cursor();
  for await (const page of cursor)
    for (const match of String(page.page_content ?? '').matchAll(SIGN))
      used.add(match[0].toLowerCase());
  return used;
}

async function boundToLivePages(fileIds: number[]): Promise<Set<number>> {
  const bindings = await FilePage.find(
    { file_id: { $in: fileIds } },
    { file_id: 1, page_id: 1, _id: 0 },
  ).lean();
  const live = await Page.find(
    { page_id: { $in: [...new Set(bindings.map((b) => b.page_id))] }, is_del: 0 },
    { page_id: 1, _id: 0 },
  ).lean();
  const liveIds = new Set(live.map((p) => p.page_id));
  return new Set(bindings.filter((b) => liveIds.has(b.page_id)).map((b) => b.file_id));
}

/** Unused files, newest first, one page of them, with the total. */
export async function listUnusedFiles(
  actor: Actor,
  filter: UnusedFilter,
): Promise<{ rows: UploadFileDoc[]; total: number; usernames: Map<number, string> }> {
  if (!isSiteAdmin(actor)) throw errors.noPermission();
  const match: Record<string, unknown> = {};
  const name = filter.displayName.trim();
  if (name)
    match.display_name = { $regex: name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' };
  const username = filter.username.trim();
  if (username) {
    const user = await User.findOne(
      { $or: [{ username }, { email: username }] },
      { uid: 1, _id: 0 },
    ).lean();
    match.uid = user ? user.uid : -99; // ShowDoc: an unknown user matches nothing
  }
  const candidates = await UploadFile.find(match, { _id: 0 })
    .sort({ addtime: -1, file_id: -1 })
    .lean<UploadFileDoc[]>();
  const [signs, bound] = await Promise.all([
    signsInUse(),
    boundToLivePages(candidates.map((f) => f.file_id)),
  ]);
  const unused = candidates.filter(
    (f) => f.sign && !signs.has(f.sign.toLowerCase()) && !bound.has(f.file_id),
  );
  const count = filter.count > 0 ? Math.min(filter.count, MAX_COUNT) : 10;
  const page = filter.page > 0 ? filter.page : 1;
  const rows = unused.slice((page - 1) * count, page * count);
  const users = await User.find(
    { uid: { $in: [...new Set(rows.map((r) => r.uid))] } },
    { uid: 1, username: 1, _id: 0 },
  ).lean();
  return { rows, total: unused.length, usernames: new Map(users.map((u) => [u.uid, u.username])) };
}

/** Deletes the given files (site admins); counts what was deleted and what was not found. */
export async function deleteFiles(
  actor: Actor,
  fileIds: number[],
): Promise<{ success: number; failed: number }> {
  if (!isSiteAdmin(actor)) throw errors.noPermission();
  const ids = [...new Set(fileIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
  if (!ids.length) throw errors.failed('Missing parameter: file_ids');
  if (ids.length > MAX_BATCH)
    throw errors.failed(`At most ${MAX_BATCH} files can be deleted at once`);
  let success = 0;
  let failed = 0;
  for (const id of ids) {
    const file = await findFile(id);
    if (!file) {
      failed += 1;
      continue;
    }
    await destroyFile(file);
    success += 1;
  }
  return { success, failed };
}
