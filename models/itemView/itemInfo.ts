/**
 * Opening an item: `item/info` (the project payload with the viewer's flags and menu, reference
 * accounts §9.6 / pages §2), `item/pwd` (the visit-password screen, §4) and `item/getItemId`
 * (custom address → id).
 */
import {
  clientFlags,
  findLiveItem,
  itemAccess,
  permits,
  type Actor,
  type ItemAccess,
  verifyItemPassword,
} from '../access';
import { checkCaptcha } from '../accounts';
import { errors, RawJson } from '../platform';
import { type AiConfig, aiConfigOf, type ItemDoc } from '../items';
import {
  buildMenu,
  defaultCatalogs,
  flagMenuPages,
  lazyMenuText,
  type Menu,
  menuText,
} from '../catalogs';
import { itemHasContractMarks } from '../contracts';
import { unreadRemindCount } from '../notices';
import { changedMenuPages } from '../readMarkers';
import { Page } from '../pages';
import { getSiteSettings } from '../settings';

export const ITEM_GONE = 'The item does not exist or was deleted';
const RUNAPI_TYPE = 3;

export interface InfoOptions {
  pageId: number;
  defaultPageId: number;
  keyword: string;
  itemPassword: string;
  /** Quire's reader on a big item: the top level and the way to the page (menuLevels.ts). */
  lazyMenu?: boolean;
}

export interface ItemInfo {
  item_id: string;
  item_domain: string;
  is_archived: string;
  item_name: string;
  default_page_id: string;
  default_cat_id2: number;
  default_cat_id3: number;
  default_cat_id4: number;
  unread_count: number;
  item_type: string;
  /** The menu; without a keyword it is the text the menu cache keeps (see menuText). */
  menu: Menu | RawJson<Menu>;
  is_login: boolean;
  item_edit: boolean;
  item_manage: boolean;
  ItemPermn: boolean;
  ItemCreator: boolean;
  current_page_id: number;
  global_param: unknown;
  show_watermark: number;
  allow_comment: string;
  allow_feedback: string;
  ai_knowledge_base_enabled: number;
  ai_config: AiConfig;
  /** 1 when some page of the item carries an API contract change mark (models/contracts). */
  api_contract_marks: number;
  /** Pages changed since the viewer last read them (logged-in viewers, not in keyword mode). */
  changed_pages?: number;
}

/** The visit check, answering as ShowDoc's item/info does (10303 sends the client to the password screen). */
async function visitAccess(
  actor: Actor,
  idOrDomain: string,
  itemPassword: string,
): Promise<ItemAccess> {
  if (!idOrDomain || /^0+$/.test(idOrDomain)) throw errors.failed(ITEM_GONE);
  const item = await findLiveItem(idOrDomain);
  if (!item) throw errors.failed(ITEM_GONE);
  const access = await itemAccess(actor, item, { itemPassword });
  if (!access || !permits(access, 'item.read'))
    throw errors.noEditPermission('No permission to visit this item');
  return access;
}

export async function itemInfo(
  actor: Actor,
  idOrDomain: string,
  options: InfoOptions,
): Promise<ItemInfo> {
  const access = await visitAccess(actor, idOrDomain, options.itemPassword);
  const settings = await getSiteSettings();
  if (settings.forceLogin && actor.uid <= 0) throw errors.logInFirst('Please log in first');
  const item = access.item;
  const keyword = options.keyword.trim();
  const [menu, defaults] = await Promise.all([
    keyword
      ? buildMenu(access, actor, { keyword })
      : options.lazyMenu
        ? lazyMenuText(access, actor, options.defaultPageId || options.pageId)
        : menuText(access, actor),
    defaultCatalogs(access, actor, options.defaultPageId),
  ]);
  const tracksReads = actor.uid > 0 && !keyword;
  const [unreadCount, changed, aiConfig, contractMarks] = await Promise.all([
    unreadRemindCount(actor.uid),
    tracksReads && 'bytes' in menu
      ? changedMenuPages(actor, item.item_id, menu.pages)
      : new Set<number>(),
    aiConfigOf(item.item_id),
    itemHasContractMarks(item.item_id),
  ]);
  return {
    item_id: String(item.item_id),
    item_domain: item.item_domain ?? '',
    is_archived: String(item.is_archived ?? 0),
    item_name: item.item_name ?? '',
    default_page_id: String(options.defaultPageId),
    ...defaults,
    unread_count: unreadCount,
    item_type: String(item.item_type ?? 1),
    menu: 'bytes' in menu ? new RawJson<Menu>(flagMenuPages(menu, changed)) : menu,
    ...clientFlags(access, actor),
    current_page_id: options.pageId,
    global_param:
      item.item_type === RUNAPI_TYPE
        ? { query: [], body: [], header: [], cookies: [], preScript: '', postScript: '' }
        : [],
    show_watermark: settings.showWatermark ? 1 : 0,
    allow_comment: String(item.allow_comment ?? 0),
    allow_feedback: String(item.allow_feedback ?? 0),
    ai_knowledge_base_enabled: 0,
    ai_config: aiConfig,
    api_contract_marks: contractMarks ? 1 : 0,
    ...(tracksReads ? { changed_pages: changed.size } : {}),
  };
}

export interface PasswordAttempt {
  idOrDomain: string;
  pageId: number;
  password: string;
  captchaId: number;
  captcha: string;
  /** Base64 of where to go next. */
  referUrl: string;
}

/**
 * Only a same-site path is handed back (ShowDoc echoed any decoded URL, an open redirect):
 * `/…` but not `//…` or `/\…`, no scheme, no control characters.
 */
export function safeReferUrl(base64: string): string {
  if (!base64 || base64.length > 4096) return '';
  let decoded: string;
  try {
    decoded = Buffer.from(base64, 'base64').toString('utf8');
  } catch {
    return '';
  }
  if (!decoded.startsWith('/') || decoded.startsWith('//') || decoded.startsWith('/\\')) return '';
  if ([...decoded].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return '';
  return decoded;
}

/**
 * The visit-password screen: captcha first (single use), then the password. Success tells the
 * client to remember the password for its session (it sends `_item_pwd` from then on).
 */
export async function checkVisitPassword(attempt: PasswordAttempt): Promise<{ refer_url: string }> {
  if (!(await checkCaptcha(attempt.captchaId, attempt.captcha)))
    throw errors.captchaWrong('Captcha incorrect');
  let item: ItemDoc | null = null;
  if (attempt.pageId > 0) {
    const page = await Page.findOne(
      { page_id: attempt.pageId, is_del: 0 },
      { item_id: 1, _id: 0 },
    ).lean();
    if (page) item = await findLiveItem(page.item_id);
  }
  item ??= attempt.idOrDomain ? await findLiveItem(attempt.idOrDomain) : null;
  if (!item) throw errors.failed(ITEM_GONE);
  if (!(await verifyItemPassword(item, attempt.password)))
    throw errors.visitPasswordWrong('Access password incorrect');
  return { refer_url: safeReferUrl(attempt.referUrl) };
}

/** Resolves an item's custom address (or id) to its numeric id, for those who may visit it. */
export async function resolveItemId(
  actor: Actor,
  idOrDomain: string,
  itemPassword: string,
): Promise<{ item_id: number }> {
  const access = await visitAccess(actor, idOrDomain, itemPassword);
  return { item_id: access.item.item_id };
}
