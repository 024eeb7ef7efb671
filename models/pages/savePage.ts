/**
 * Saving a page: THE single write path. REST `page/save`, the open API, imports, history restore,
 * AI agents (MCP) and the collaborative editor all call `savePage(actor, input, options)`, which
 * runs five steps, each in a file of its own:
 *
 *   check      saveInput.ts    the input on its own (lengths, flags, JSON)
 *   authorize  models/access   one call: edit on the item, the page, the target catalog
 *   plan       savePlan.ts     quota, article ID, ext_info, the row to write, notify's reminders
 *   write      pageWrite.ts    the page row (its before-image becomes the version)
 *   effects    saveEffects.ts  reminders, version, change log, item time, live document, events
 *
 * Content: the database holds the Markdown exactly as written (never HTML-escaped). ShowDoc kept
 * it escaped and every ShowDoc client un-escapes what it reads exactly once, so reads that ShowDoc
 * served escaped are escaped on the way out (pageContent.ts, applied by the page routes). Input
 * sent with `is_urlencode=1` is URL-decoded once by the route before it reaches `savePage`.
 *
 * The live document (ports.ts `LiveDocPort`): an update goes into the page's open collaborative
 * document through the port realtime registers at start — or, for the editor's own save, through
 * the document it comes from (option `liveDoc`), so a save never loops back into its source.
 */
import { authorizePageSave, type Actor } from '../access';
import { errors, nowSeconds } from '../platform';
import { findLivePage, keepWrittenPage, watchPageWrite } from './pageAccess';
import { writePage } from './pageWrite';
import { applySaveEffects } from './saveEffects';
import { checkSaveInput, type SaveOptions, type SavePageInput } from './saveInput';
import { planSave, targetCatalog } from './savePlan';
import type { PageDoc } from './schemas/page';

export interface SavePageResult {
  page: PageDoc;
  created: boolean;
}

/** Creates or updates a page. See the file comment for the steps. */
export async function savePage(
  actor: Actor,
  input: SavePageInput,
  options: SaveOptions,
): Promise<SavePageResult> {
  // Check.
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  checkSaveInput(input);

  // Authorize: the page as stored (a page of another item is no page of this one), then access
  // answers for the item, the page and the catalog it is to be in.
  const found = input.pageId > 0 ? await findLivePage(input.pageId) : null;
  const existing = found && found.item_id === input.itemId ? found : null;
  const access = await authorizePageSave(actor, {
    itemId: input.itemId,
    pageId: input.pageId,
    page: existing,
    catId: targetCatalog(input, existing),
  });

  // Plan.
  const now = options.now ?? nowSeconds();
  const { fields, notice } = await planSave(actor, input, access, existing, now);

  // Write, then effects. The written page is kept in the read model as soon as the save's events
  // are out (before their listeners run) when no other write of the page raced it.
  const watch = existing ? watchPageWrite(existing.page_id) : null;
  let page: PageDoc;
  let kept = false;
  try {
    const written = await writePage({
      itemId: input.itemId,
      existing,
      fields,
      now,
      // Told of (rowStored) or carried by no journaled change-log row: the row waits for its flush.
      journaled: options.rowStored !== undefined || options.versioned === false,
      versioned: options.versioned !== false,
    });
    options.rowStored?.({ ...written.page });
    const published = () => {
      kept = true;
      if (watch) keepWrittenPage(watch, { ...written.page });
    };
    await applySaveEffects({
      actor,
      input,
      access,
      existing,
      written,
      notice,
      now,
      options,
      published,
    });
    page = written.page;
  } catch (error) {
    if (watch && !kept) keepWrittenPage(watch, null);
    throw error;
  }
  return { page, created: !existing };
}

export interface StagedSave {
  /** The page row as stored, once it is on disk (before the version, log and events). */
  stored: Promise<PageDoc>;
  /** The whole save, as `savePage` resolves it. */
  saved: Promise<SavePageResult>;
}

/**
 * `savePage` in two stages: `stored` resolves as soon as the page row is on disk, `saved` when
 * the save is done. A save that fails before its row is stored rejects both.
 */
export function savePageStaged(
  actor: Actor,
  input: SavePageInput,
  options: SaveOptions,
): StagedSave {
  let rowStored!: (page: PageDoc) => void;
  let failed!: (error: unknown) => void;
  const stored = new Promise<PageDoc>((resolve, reject) => {
    rowStored = resolve;
    failed = reject;
  });
  const saved = savePage(actor, input, { ...options, rowStored });
  // Rejects `stored` only while it is pending: a failure after the row leaves it resolved.
  saved.catch(failed);
  stored.catch(() => undefined); // the caller may await `saved` alone
  return { stored, saved };
}
