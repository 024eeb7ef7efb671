/**
 * Page templates (reference pages §5): a user's own Markdown snippets, optionally shared to items
 * they may edit, so that the item's other editors can insert them too.
 *
 * Rules: only the owner lists, shares or deletes a template; sharing needs edit rights on every
 * target item, checked for the whole list before anything changes (ShowDoc dropped the old shares
 * first and could stop half-way); an item's templates are listed to its editors. Content is stored
 * and returned exactly as written.
 */
import { requireAction, itemAccess, permits, readOnlyMessage, type Actor } from '../access';
import { errors, formatNow, nextId, nowSeconds } from '../platform';
import { Template, type TemplateDoc } from './schemas/template';
import { TemplateItem, type TemplateItemDoc } from './schemas/templateItem';

export const MAX_TEMPLATE_TITLE = 255;
/** Characters of Markdown per template (a page saved as a template must fit). */
export const MAX_TEMPLATE_CONTENT = 2_000_000;
/** Items one `shareToItem` call may name. */
export const MAX_SHARE_ITEMS = 200;

const NO_PERMISSION = 'No permission';

function requireUser(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

/** template/save: a new template owned by the caller. */
export async function saveTemplate(
  actor: Actor,
  input: { title: string; content: string },
  options: { now?: number } = {},
): Promise<{ id: number }> {
  requireUser(actor);
  const title = input.title.trim();
  if (!title) throw errors.failed('Please enter the template title');
  if (title.length > MAX_TEMPLATE_TITLE)
    throw errors.failed(`The template title must be at most ${MAX_TEMPLATE_TITLE} characters`);
  if (input.content.length > MAX_TEMPLATE_CONTENT)
    throw errors.failed('The template content is too large');
  const id = await nextId('template_id');
  await Template.create({
    id,
    uid: actor.uid,
    username: actor.username,
    template_title: title,
    template_content: input.content,
    addtime: options.now ?? nowSeconds(),
  });
  return { id };
}

export interface OwnTemplate {
  template: TemplateDoc;
  shares: TemplateItemDoc[];
}

/** template/getMyList: the caller's templates, newest first, each with the items it is shared to. */
export async function listMyTemplates(actor: Actor): Promise<OwnTemplate[]> {
  requireUser(actor);
  const templates = await Template.find({ uid: actor.uid }, { _id: 0 })
    .sort({ addtime: -1, id: -1 })
    .lean<TemplateDoc[]>();
  if (!templates.length) return [];
  const shares = await TemplateItem.find(
    { template_id: { $in: templates.map((t) => t.id) } },
    { _id: 0 },
  )
    .sort({ id: 1 })
    .lean<TemplateItemDoc[]>();
  const byTemplate = new Map<number, TemplateItemDoc[]>();
  for (const share of shares) {
    const list = byTemplate.get(share.template_id) ?? [];
    list.push(share);
    byTemplate.set(share.template_id, list);
  }
  return templates.map((template) => ({ template, shares: byTemplate.get(template.id) ?? [] }));
}

export interface SharedTemplate {
  share: TemplateItemDoc;
  template: TemplateDoc;
}

/** template/getItemList: templates shared to an item, for its editors (archived items too: a read). */
export async function listItemTemplates(actor: Actor, itemId: number): Promise<SharedTemplate[]> {
  requireUser(actor);
  if (!(itemId > 0)) throw errors.failed('Item not found');
  await requireAction(actor, 'template.share', itemId);
  const shares = await TemplateItem.find({ item_id: itemId }, { _id: 0 })
    .sort({ id: 1 })
    .lean<TemplateItemDoc[]>();
  if (!shares.length) return [];
  const templates = await Template.find(
    { id: { $in: shares.map((s) => s.template_id) } },
    { _id: 0 },
  ).lean<TemplateDoc[]>();
  const byId = new Map(templates.map((t) => [t.id, t]));
  return shares.flatMap((share) => {
    const template = byId.get(share.template_id);
    return template ? [{ share, template }] : [];
  });
}

/** The caller's own template, or 10103 (someone else's and missing ones answer alike). */
async function ownTemplate(actor: Actor, templateId: number): Promise<TemplateDoc> {
  requireUser(actor);
  if (!(templateId > 0)) throw errors.failed('Template not found');
  const template = await Template.findOne({ id: templateId }, { _id: 0 }).lean<TemplateDoc>();
  if (!template || template.uid !== actor.uid) throw errors.noPermission(NO_PERMISSION);
  return template;
}

/** template/delete: removes the caller's template and its shares. */
export async function deleteTemplate(actor: Actor, templateId: number): Promise<void> {
  const template = await ownTemplate(actor, templateId);
  await TemplateItem.deleteMany({ template_id: template.id });
  await Template.deleteOne({ id: template.id, uid: actor.uid });
}

/**
 * template/shareToItem: the template is then shared to exactly these items. Every item must be
 * editable by the caller; otherwise nothing changes. Shares kept from before keep their row.
 */
export async function shareTemplate(
  actor: Actor,
  templateId: number,
  itemIds: number[],
): Promise<void> {
  const template = await ownTemplate(actor, templateId);
  const wanted = [...new Set(itemIds)];
  if (wanted.length > MAX_SHARE_ITEMS)
    throw errors.failed(`A template can be shared to at most ${MAX_SHARE_ITEMS} items at once`);
  for (const itemId of wanted) {
    // Missing items answer like forbidden ones, so ids cannot be probed.
    const access = await itemAccess(actor, itemId);
    if (!access || !permits(access, 'template.receive'))
      throw errors.noPermission(
        access?.readOnly && permits(access, 'template.share')
          ? `Item ${itemId}: ${readOnlyMessage(access)}`
          : `No permission for item ${itemId}`,
      );
  }
  await TemplateItem.deleteMany({ template_id: template.id, item_id: { $nin: wanted } });
  const existing = await TemplateItem.find(
    { template_id: template.id },
    { item_id: 1, _id: 0 },
  ).lean();
  const have = new Set(existing.map((row) => row.item_id));
  const createdAt = formatNow();
  for (const itemId of wanted) {
    if (have.has(itemId)) continue;
    try {
      await TemplateItem.create({
        id: await nextId('template_item_id'),
        template_id: template.id,
        item_id: itemId,
        uid: actor.uid,
        username: actor.username,
        created_at: createdAt,
      });
    } catch (error) {
      // A concurrent call shared it to the same item: the share exists, which is what was asked.
      if ((error as { code?: number }).code !== 11000) throw error;
    }
  }
}

/** template/getShareItemList: the share rows of the caller's template. */
export async function templateShares(actor: Actor, templateId: number): Promise<TemplateItemDoc[]> {
  const template = await ownTemplate(actor, templateId);
  return TemplateItem.find({ template_id: template.id }, { _id: 0 })
    .sort({ id: 1 })
    .lean<TemplateItemDoc[]>();
}

/** The item's template shares, when the item is purged (inside models/backOffice's transaction). */
export async function purgeItemTemplateShares(itemId: number): Promise<void> {
  await TemplateItem.deleteMany({ item_id: itemId });
}
