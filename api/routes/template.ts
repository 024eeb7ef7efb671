/**
 * `template/*` (reference pages §5): a user's page templates and their shares to items. Rules in
 * models/templates/templates.ts. Rows as ShowDoc answered them: columns as strings, `addtime` formatted, and
 * the content as written (ShowDoc un-escaped it once on the way out, so clients get the same text).
 */
import { errors, formatUnix } from '../../models/platform';
import {
  deleteTemplate,
  listItemTemplates,
  listMyTemplates,
  saveTemplate,
  shareTemplate,
  type TemplateDoc,
  type TemplateItemDoc,
  templateShares,
} from '../../models/templates';
import { requireLogin } from '../auth';
import { parseList, templateContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

function templateRow(t: TemplateDoc) {
  return {
    id: String(t.id),
    uid: String(t.uid),
    username: t.username,
    template_title: t.template_title,
    template_content: t.template_content,
    addtime: formatUnix(t.addtime),
  };
}

function shareRow(s: TemplateItemDoc) {
  return {
    id: String(s.id),
    template_id: String(s.template_id),
    item_id: String(s.item_id),
    uid: String(s.uid),
    username: s.username,
    created_at: s.created_at,
  };
}

/** `item_id` of shareToItem: a comma list (or array) of positive ids; empty entries are skipped. */
function itemIdList(items: unknown): number[] {
  const raw = parseList(items);
  if (!raw) throw errors.badParam('item_id');
  if (raw.some((v) => !/^\d{1,15}$/.test(v))) throw errors.failed('Invalid item id');
  return raw.map(Number).filter((id) => id > 0);
}

async function getMyList(ctx: ActionContext) {
  const { actor } = await requireLogin(ctx);
  return (await listMyTemplates(actor)).map(({ template, shares }) => ({
    ...templateRow(template),
    share_item: shares.map(shareRow),
    share_item_count: shares.length,
  }));
}

export const templateController = defineController('template', templateContract, {
  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveTemplate(actor, {
      title: ctx.input.template_title,
      content: ctx.input.template_content,
    });
  },

  getMyList,
  // ShowDoc's older name for the same list.
  getList: getMyList,

  async getItemList(ctx) {
    const { actor } = await requireLogin(ctx);
    const rows = await listItemTemplates(actor, ctx.input.item_id);
    // ShowDoc merged the template with its share row: `id`, `uid` and `username` are the share's.
    return rows.map(({ share, template }) => ({
      ...templateRow(template),
      ...shareRow(share),
    }));
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteTemplate(actor, ctx.input.id);
  },

  async shareToItem(ctx) {
    const { actor } = await requireLogin(ctx);
    const templateId = ctx.input.template_id;
    const items = ctx.input.item_id;
    // As ShowDoc: no item list at all is an error, while "0" or "," shares to nothing.
    if (!(templateId > 0) || items === undefined || items === '')
      throw errors.failed('Parameter error');
    await shareTemplate(actor, templateId, itemIdList(items));
  },

  async getShareItemList(ctx) {
    const { actor } = await requireLogin(ctx);
    return (await templateShares(actor, ctx.input.template_id)).map(shareRow);
  },
});
