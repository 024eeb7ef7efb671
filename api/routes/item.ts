/**
 * `item/*` — creating, opening and administering items (reference accounts §9.3–§9.6, §9.8,
 * §9.11–§9.16). The list-related actions are in itemList.ts, search in itemSearch.ts; the
 * registry merges actions of the same controller. Rules live in models/items/items.ts and friends.
 */
import { itemAiConfig, setItemAiConfig } from '../../models/compat';
import {
  copyItem,
  getItemKey,
  resetItemKey,
  archiveItem,
  createItem,
  deleteItem,
  itemDetail,
  transferItem,
  updateItem,
} from '../../models/items';
import { checkVisitPassword, itemInfo, resolveItemId, visibleChangeLog } from '../../models/reader';
import { errors } from '../../models/platform';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { defineController, type ActionContext } from '../registry';
import { groupIdsParam, optionalBool, optionalStr } from './itemParams';

function itemIdParam(ctx: ActionContext): number {
  const id = ctx.params.int('item_id');
  if (!(id > 0)) throw errors.failed('Item not found');
  return id;
}

/**
 * item/info's and item/pwd's page: ShowDoc's reader sends its route's page part, which may be a
 * custom page id — not a number, so no page id here (0: not given, as ShowDoc's server reads it),
 * while digits are the page id.
 */
function routePageId(ctx: ActionContext, name: string): number {
  const raw = ctx.params.str(name).trim();
  return /^\d{1,16}$/.test(raw) ? Number(raw) : 0;
}

export const itemController = defineController('item', {
  async add(ctx) {
    const { actor } = await requireLogin(ctx);
    const domain = ctx.params.str('item_domain').trim() || ctx.params.str('item_custom_id').trim();
    const input = {
      item_name: ctx.params.str('item_name'),
      item_description: ctx.params.str('item_description'),
      password: ctx.params.str('password'),
      item_domain: domain,
      group_ids: groupIdsParam(ctx),
    };
    const copyFrom = ctx.params.int('copy_item_id');
    if (copyFrom > 0) return copyItem(actor, copyFrom, input, { itemPassword: itemPassword(ctx) });
    return createItem(actor, {
      ...input,
      item_type: ctx.params.int('item_type', 1),
      allow_comment: ctx.params.bool('allow_comment'),
      allow_feedback: ctx.params.bool('allow_feedback'),
    });
  },

  async update(ctx) {
    const { actor } = await requireLogin(ctx);
    await updateItem(
      actor,
      itemIdParam(ctx),
      {
        item_name: optionalStr(ctx, 'item_name'),
        item_description: optionalStr(ctx, 'item_description'),
        item_domain: optionalStr(ctx, 'item_domain'),
        password: optionalStr(ctx, 'password'),
        is_private: optionalBool(ctx, 'is_private'),
        allow_comment: optionalBool(ctx, 'allow_comment'),
        allow_feedback: optionalBool(ctx, 'allow_feedback'),
        co_edit: optionalBool(ctx, 'co_edit'),
        group_ids: groupIdsParam(ctx),
      },
      { itemPassword: itemPassword(ctx) },
    );
    return { success: true };
  },

  async detail(ctx) {
    const { actor } = await requireLogin(ctx);
    return itemDetail(actor, itemIdParam(ctx));
  },

  async info(ctx) {
    const { actor } = await optionalLogin(ctx);
    const raw = ctx.params.str('item_id').trim() || ctx.params.str('item_domain').trim();
    return itemInfo(actor, raw, {
      pageId: routePageId(ctx, 'page_id'),
      defaultPageId: routePageId(ctx, 'default_page_id'),
      keyword: ctx.params.str('keyword'),
      itemPassword: itemPassword(ctx),
    });
  },

  async pwd(ctx) {
    return checkVisitPassword({
      idOrDomain: ctx.params.str('item_id').trim(),
      pageId: routePageId(ctx, 'page_id'),
      password: ctx.params.str('password'),
      captchaId: ctx.params.int('captcha_id'),
      captcha: ctx.params.str('captcha'),
      referUrl: ctx.params.str('refer_url'),
    });
  },

  async getItemId(ctx) {
    const { actor } = await optionalLogin(ctx);
    const raw =
      ctx.params.str('item_domain').trim() ||
      ctx.params.str('item_custom_id').trim() ||
      ctx.params.str('item_id').trim();
    return resolveItemId(actor, raw, itemPassword(ctx));
  },

  async getKey(ctx) {
    const { actor } = await requireLogin(ctx);
    return getItemKey(actor, itemIdParam(ctx));
  },

  async resetKey(ctx) {
    const { actor } = await requireLogin(ctx);
    return resetItemKey(actor, itemIdParam(ctx));
  },

  async archive(ctx) {
    const { actor } = await requireLogin(ctx);
    await archiveItem(actor, itemIdParam(ctx), ctx.params.str('password'));
    return { success: true };
  },

  async attorn(ctx) {
    const { actor } = await requireLogin(ctx);
    return transferItem(
      actor,
      itemIdParam(ctx),
      ctx.params.str('username'),
      ctx.params.str('password'),
    );
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteItem(actor, itemIdParam(ctx), {
      password: ctx.params.str('password'),
      projectName: ctx.params.str('project_name'),
    });
    return { success: true };
  },

  /** The AI knowledge base is left out (models/aiOff.ts): its settings read as off. */
  async getAiConfig(ctx) {
    const { actor } = await optionalLogin(ctx);
    return itemAiConfig(actor, ctx.params.int('item_id'));
  },

  async setAiConfig(ctx) {
    const { actor } = await requireLogin(ctx);
    const fields = [
      'enabled',
      'dialog_collapsed',
      'welcome_message',
      'system_prompt',
      'guest_enabled',
    ].filter((name) => ctx.params.has(name));
    return setItemAiConfig(actor, ctx.params.int('item_id'), fields);
  },

  async getChangeLog(ctx) {
    const { actor } = await requireLogin(ctx);
    return visibleChangeLog(
      actor,
      itemIdParam(ctx),
      ctx.params.int('page', 1),
      ctx.params.int('count', 15),
    );
  },
});
