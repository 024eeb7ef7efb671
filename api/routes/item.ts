/**
 * `item/*` — creating, opening and administering items (reference accounts §9.3–§9.6, §9.8,
 * §9.11–§9.16). The list-related actions are in itemList.ts, search in itemSearch.ts; the
 * registry merges actions of the same controller. Rules live in models/items/items.ts and friends.
 */
import {
  getItemKey,
  resetItemKey,
  archiveItem,
  createItem,
  deleteItem,
  itemDetail,
  readItemAiConfig,
  saveItemAiConfig,
  transferItem,
  updateItem,
} from '../../models/items';
import { copyItem } from '../../models/catalogs';
import {
  checkVisitPassword,
  itemInfo,
  resolveItemId,
  visibleChangeLog,
} from '../../models/itemView';
import { errors } from '../../models/platform';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { itemContract } from '../contracts';
import { defineController } from '../registry';
import { groupIds } from './itemParams';

/** An action's item: 0 (not given) is no item, as ShowDoc answers it. */
function required(itemId: number): number {
  if (!(itemId > 0)) throw errors.failed('Item not found');
  return itemId;
}

/**
 * item/info's and item/pwd's page: ShowDoc's reader sends its route's page part, which may be a
 * custom page id — not a number, so no page id here (0: not given, as ShowDoc's server reads it),
 * while digits are the page id.
 */
function routePageId(raw: string): number {
  const text = raw.trim();
  return /^\d{1,16}$/.test(text) ? Number(text) : 0;
}

export const itemController = defineController('item', itemContract, {
  async add(ctx) {
    const { actor } = await requireLogin(ctx);
    const { input } = ctx;
    const fields = {
      item_name: input.item_name,
      item_description: input.item_description,
      password: input.password,
      item_domain: input.item_domain.trim() || input.item_custom_id.trim(),
      group_ids: groupIds(input),
    };
    if (input.copy_item_id > 0)
      return copyItem(actor, input.copy_item_id, fields, { itemPassword: itemPassword(ctx) });
    return createItem(actor, {
      ...fields,
      item_type: input.item_type,
      allow_comment: input.allow_comment,
      allow_feedback: input.allow_feedback,
    });
  },

  async update(ctx) {
    const { actor } = await requireLogin(ctx);
    const { input } = ctx;
    await updateItem(
      actor,
      required(input.item_id),
      {
        item_name: input.item_name,
        item_description: input.item_description,
        item_domain: input.item_domain,
        password: input.password,
        is_private: input.is_private,
        allow_comment: input.allow_comment,
        allow_feedback: input.allow_feedback,
        co_edit: input.co_edit,
        suggest_only_readers: input.suggest_only_readers,
        group_ids: groupIds(input),
      },
      { itemPassword: itemPassword(ctx) },
    );
    return { success: true };
  },

  async detail(ctx) {
    const { actor } = await requireLogin(ctx);
    return itemDetail(actor, required(ctx.input.item_id));
  },

  async info(ctx) {
    const { actor } = await optionalLogin(ctx);
    const { input } = ctx;
    return itemInfo(actor, input.item_id.trim() || input.item_domain.trim(), {
      pageId: routePageId(input.page_id),
      defaultPageId: routePageId(input.default_page_id),
      keyword: input.keyword,
      itemPassword: itemPassword(ctx),
      lazyMenu: input.lazy_menu === '1',
    });
  },

  async pwd(ctx) {
    const { input } = ctx;
    return checkVisitPassword({
      idOrDomain: input.item_id.trim(),
      pageId: routePageId(input.page_id),
      password: input.password,
      captchaId: input.captcha_id,
      captcha: input.captcha,
      referUrl: input.refer_url,
    });
  },

  async getItemId(ctx) {
    const { actor } = await optionalLogin(ctx);
    const { input } = ctx;
    const raw = input.item_domain.trim() || input.item_custom_id.trim() || input.item_id.trim();
    return resolveItemId(actor, raw, itemPassword(ctx));
  },

  async getKey(ctx) {
    const { actor } = await requireLogin(ctx);
    return getItemKey(actor, required(ctx.input.item_id));
  },

  async resetKey(ctx) {
    const { actor } = await requireLogin(ctx);
    return resetItemKey(actor, required(ctx.input.item_id));
  },

  async archive(ctx) {
    const { actor } = await requireLogin(ctx);
    await archiveItem(actor, required(ctx.input.item_id), ctx.input.password);
    return { success: true };
  },

  async attorn(ctx) {
    const { actor } = await requireLogin(ctx);
    const { input } = ctx;
    return transferItem(actor, required(input.item_id), input.username, input.password);
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    const { input } = ctx;
    await deleteItem(actor, required(input.item_id), {
      password: input.password,
      projectName: input.project_name,
    });
    return { success: true };
  },

  /** The item's "Ask the docs" settings: anyone who may visit the item reads them. */
  async getAiConfig(ctx) {
    const { actor } = await optionalLogin(ctx);
    return readItemAiConfig(actor, ctx.input.item_id, itemPassword(ctx));
  },

  async setAiConfig(ctx) {
    const { actor } = await requireLogin(ctx);
    const { input } = ctx;
    const flag = (value: number | undefined) => (value === undefined ? undefined : value ? 1 : 0);
    return saveItemAiConfig(actor, input.item_id, {
      enabled: flag(input.enabled),
      dialog_collapsed: flag(input.dialog_collapsed),
      guest_enabled: flag(input.guest_enabled),
      welcome_message: input.welcome_message,
      system_prompt: input.system_prompt,
    });
  },

  async getChangeLog(ctx) {
    const { actor } = await requireLogin(ctx);
    const { input } = ctx;
    return visibleChangeLog(actor, required(input.item_id), input.page, input.count);
  },
});
