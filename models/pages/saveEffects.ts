/**
 * The effects step of a page save (savePage.ts), once the page row is written: the "save and
 * notify" reminders, the replaced version, the change log row, the item's time (and a single-page
 * item's name), the live document, then the domain events (`page.saved`, `sheet.changed`,
 * `menu.changed`).
 */
import { type Actor, type ItemAccess } from '../access';
import { Item, logChange, MAX_ITEM_NAME } from '../items';
import { events, perContext } from '../platform';
import { markDraftSaved } from './liveDrafts';
import { recordVersion } from './pageHistory';
import type { WrittenPage } from './pageWrite';
import { liveDocs, type LiveDocPort, type PreparedNotice } from './ports';
import type { SaveOptions, SavePageInput } from './saveInput';
import { SPREADSHEET } from './savePlan';
import type { PageDoc } from './schemas/page';
import { sheetCellChanges } from './sheetContent';

/** More changed cells than this in one save: viewers reload the workbook instead. */
const MAX_PUSHED_CELLS = 2000;

export interface SaveEffectsParams {
  actor: Actor;
  input: SavePageInput;
  access: ItemAccess;
  existing: PageDoc | null;
  written: WrittenPage;
  notice: PreparedNotice | null;
  now: number;
  options: SaveOptions;
  /**
   * Called once the save's events are published, before any of their (deferred) listeners runs:
   * the save keeps the page it wrote in the read model here, so the listeners read it there.
   */
  published?: () => void;
}

/** Effects: everything a written save causes. */
export async function applySaveEffects(params: SaveEffectsParams): Promise<void> {
  const { actor, access, written, now, options } = params;
  const { page, before, created } = written;
  // A "save and notify" delivers its reminders first (their notice goes out before this save's
  // own events): the engine takes writes in the order they come, and the save's other writes,
  // sent before them, would hold them up by a disk flush. The save's answer waits for all of it
  // anyway.
  await params.notice?.send();
  // Independent writes, all done before the answer: together they share the engine's group
  // commits instead of waiting for one disk flush each. The live document (an open editor's, or
  // the stored draft) takes the saved text alongside.
  const [, , , live] = await Promise.all([
    before && written.historyId > 0
      ? recordVersion(before, { id: written.historyId, keep: written.keepVersions })
      : undefined,
    written.logRow &&
      logChange(
        {
          uid: actor.uid,
          itemId: page.item_id,
          action: created ? 'create' : 'update',
          object: 'page',
          objectId: page.page_id,
          objectName: page.page_title,
          // An AI agent's save names it ("Claude via token 'docs-bot'") beside the token's owner.
          ...(options.agent ? { remark: options.agent.label } : {}),
        },
        written.logRow,
      ),
    touchItem(access, page, created, now, actor),
    created ? false : intoLiveDocument(written, actor, now, options),
  ]);
  publishSaved(params, live);
}

/**
 * The live document takes an update: the one the save came from, else the ones registered in
 * this process. Resolves whether the text is in a document open here.
 */
async function intoLiveDocument(
  { page, before }: WrittenPage,
  actor: Actor,
  now: number,
  options: SaveOptions,
): Promise<boolean> {
  const port: LiveDocPort | null = options.liveDoc ?? liveDocs();
  const live = port
    ? await port
        .applySave({
          itemId: page.item_id,
          pageId: page.page_id,
          title: page.page_title,
          content: page.page_content,
          byUid: actor.uid,
          previous: before?.page_content ?? page.page_content,
          ...(options.agent ? { agent: options.agent } : {}),
          ...(options.rebase ? { rebase: true } : {}),
        })
        // The port reports its own failures; the stored version stands.
        .catch(() => false)
    : false;
  // No document open here took the text (none is, or this process holds none: a worker other
  // than the lead, the API role): a stored draft that now equals it is saved. A page that never
  // had a draft has none to mark (most saves).
  if (!live && before?.has_draft === 1) await markDraftSaved(page.page_id, page.page_content, now);
  return live;
}

function publishSaved(
  { actor, input, access, existing, written, now, options, published }: SaveEffectsParams,
  live: boolean,
): void {
  const { page, created } = written;
  events.publish('page.saved', {
    itemId: page.item_id,
    pageId: page.page_id,
    catId: page.cat_id,
    byUid: actor.uid,
    created,
    ...(written.before && written.historyId > 0 ? { versionId: written.historyId } : {}),
    origin: options.origin,
    notify: !created && input.notify ? { content: input.notify.content } : null,
    at: now,
    live,
    ...(options.agent ? { agent: options.agent } : {}),
  });
  if (existing && access.item.item_type === SPREADSHEET) {
    const cells = sheetCellChanges(existing.page_content, page.page_content);
    events.publish('sheet.changed', {
      itemId: page.item_id,
      pageId: page.page_id,
      byUid: actor.uid,
      cells: cells && cells.length <= MAX_PUSHED_CELLS ? cells : null,
    });
  }
  const menuMoved =
    !existing ||
    existing.page_title !== page.page_title ||
    existing.cat_id !== page.cat_id ||
    existing.s_number !== page.s_number ||
    existing.is_draft !== page.is_draft;
  if (menuMoved) events.publish('menu.changed', { itemId: page.item_id, byUid: actor.uid });
  published?.();
}

/** Each item's touch in flight: the time it sets, and whether it was stored (in this context). */
const touching = perContext(() => new Map<number, { at: number; stored: Promise<boolean> }>());

/**
 * Sets the item's `last_update_time` to `now` (or later), once for saves of the same item at
 * once: a save that finds a touch to `now` or later in flight waits for it (a kanban move saves
 * its board and its card side by side; saves stream into one item). Resolves once it is stored.
 */
async function touchTime(itemId: number, now: number): Promise<void> {
  const inFlight = touching();
  const running = inFlight.get(itemId);
  if (running && running.at >= now && (await running.stored)) return;
  const write = Item.updateOne({ item_id: itemId }, { $max: { last_update_time: now } }).exec();
  const mine = {
    at: now,
    stored: write.then(
      () => true,
      () => false,
    ),
  };
  inFlight.set(itemId, mine);
  try {
    await write;
  } finally {
    if (inFlight.get(itemId) === mine) inFlight.delete(itemId);
  }
}

/** Item `last_update_time` := now (or later); a single-page item takes its page's title as its name. */
async function touchItem(
  access: ItemAccess,
  page: PageDoc,
  created: boolean,
  now: number,
  actor: Actor,
): Promise<void> {
  const rename = !created && access.item.item_type === 2 && page.page_title.trim() !== '';
  const name = rename ? page.page_title.trim().slice(0, MAX_ITEM_NAME) : undefined;
  // The kept item follows every save's `at` (models/access), and never runs ahead of the
  // database: when it is at `now` already (another save this second), the `$max` would change
  // nothing — most saves under a stream of them skip the write.
  if (name === undefined && (access.item.last_update_time ?? 0) >= now) return;
  // $max: concurrent saves leave the latest time whatever order they land in, so the read
  // models can patch their copy from each `page.saved` (`at`) instead of reloading the item.
  if (name === undefined) return touchTime(page.item_id, now);
  await Item.updateOne(
    { item_id: page.item_id },
    { $max: { last_update_time: now }, $set: { item_name: name } },
  );
  if (name !== access.item.item_name)
    events.publish('item.changed', { itemId: page.item_id, change: 'updated', byUid: actor.uid });
}
