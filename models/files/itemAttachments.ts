/**
 * An item's attachments (the MCP `list_attachments` tool, as ShowDoc lists them: the files bound
 * to the item's pages, newest binding first): only pages the actor may see count — a catalog
 * restriction or someone else's draft hides their files too. A file bound to several pages is
 * listed once.
 */
import { requireAction, type Actor } from '../access';
import { pageVisible } from '../pages';
import { Page } from '../pages';
import { FilePage } from './schemas/filePage';
import { UploadFile, type UploadFileDoc } from './schemas/uploadFile';

/** The most files one list holds (ShowDoc's limit). */
export const MAX_ITEM_ATTACHMENTS = 500;

export async function itemAttachments(actor: Actor, itemId: number): Promise<UploadFileDoc[]> {
  const access = await requireAction(actor, 'item.read', itemId);
  const bindings = await FilePage.find({ item_id: itemId }, { file_id: 1, page_id: 1, _id: 0 })
    .sort({ addtime: -1, id: -1 })
    .limit(MAX_ITEM_ATTACHMENTS * 2)
    .lean();
  const pages = await Page.find(
    { page_id: { $in: [...new Set(bindings.map((b) => b.page_id))] }, is_del: 0 },
    { page_id: 1, cat_id: 1, is_draft: 1, author_uid: 1, _id: 0 },
  ).lean();
  const visible = new Set<number>();
  for (const page of pages) if (await pageVisible(actor, access, page)) visible.add(page.page_id);
  const order: number[] = [];
  for (const binding of bindings)
    if (visible.has(binding.page_id) && !order.includes(binding.file_id))
      order.push(binding.file_id);
  const wanted = order.slice(0, MAX_ITEM_ATTACHMENTS);
  const files = await UploadFile.find({ file_id: { $in: wanted } }, { _id: 0 }).lean<
    UploadFileDoc[]
  >();
  const byId = new Map(files.map((f) => [f.file_id, f]));
  return wanted.map((id) => byId.get(id)).filter((f): f is UploadFileDoc => f !== undefined);
}
