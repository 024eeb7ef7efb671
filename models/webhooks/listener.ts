/**
 * Domain events → queued deliveries. Subscribes to the one event catalogue
 * (models/platform/events.ts), events of this process only (each process queues its own writes'
 * events once; the queue is shared through the collection).
 *
 * Nothing of this is on a save's path: a handler only appends the event to an in-memory outbox.
 * The outbox is written a batch at a time, BATCH_WINDOW_MS after its first event (or at once when
 * it holds MAX_BATCH): the hooks of the batch's items in one query, each kind of fact for the
 * digests in one read (payload.ts), the delivery ids in one counter step and the rows in one
 * insert — one journal flush per batch instead of two per save. Batches are written one after
 * the other, in the order their events came. The trade-off: an event sits in memory for at most
 * the window plus one batch write before its rows are durable; a crash in that moment loses those
 * deliveries (a clean stop writes the outbox first). Once written, a delivery survives anything.
 *
 * Who receives an event:
 * - the item's enabled hooks that chose it;
 * - users' push addresses (ShowDoc's `user/savePushUrl`): page events and comments go to the
 *   page's subscribers, item and member events to the item's owner — never to the user who
 *   caused the event. A push address gets the generic JSON body; it is signed with a secret of its
 *   own that Quire does not show (ShowDoc's push address has none), so receivers of push
 *   addresses should not rely on the signature.
 */
import { findLiveItem } from '../access';
import { pushUrlsOf } from '../accounts';
import { pageSubscriberUids } from '../notices';
import {
  type DomainEvents,
  events,
  formatNow,
  isAddressRefusal,
  nextId,
  perContext,
} from '../platform';
import { lastContractDiff } from '../contracts';
import { checkReceiver, enqueueMany, newSecret, type QueuedDelivery } from './hooks';
import { buildPayloads, type PayloadInput } from './payload';
import { type DeliverySettings, startQueue } from './queue';
import { type HookEvent, Webhook, type WebhookDocFields } from './schemas';

/** The user's push-address hook, made or brought up to date from `push_url` (null: none). */
async function pushHookOf(uid: number, url: string): Promise<WebhookDocFields | null> {
  const hook = await Webhook.findOne({ kind: 'user', uid }, { _id: 0 }).lean<WebhookDocFields>();
  try {
    await checkReceiver(url);
  } catch (error) {
    if (isAddressRefusal(error)) return null;
    throw error;
  }
  const now = formatNow();
  if (!hook) {
    const id = await nextId('webhook_id');
    const made = {
      id,
      kind: 'user' as const,
      item_id: 0,
      uid,
      url,
      preset: 'json' as const,
      events: [],
      secret: newSecret(),
      enabled: 1,
      fail_count: 0,
      disabled_reason: '',
      listening_since: 0,
      created_at: now,
      updated_at: now,
    };
    await Webhook.create(made);
    return made;
  }
  if (hook.url !== url) {
    // A new address starts afresh: switched on, no failures counted.
    await Webhook.updateOne(
      { id: hook.id },
      { $set: { url, enabled: 1, fail_count: 0, disabled_reason: '', updated_at: now } },
    );
    return { ...hook, url, enabled: 1 };
  }
  return hook.enabled === 1 ? hook : null;
}

/** An event ready to address: its payload's facts and the users whose push address hears it. */
interface Outgoing {
  input: PayloadInput;
  pushTo: readonly number[];
}

/** An event as the outbox holds it: when it happened (Unix ms) and its preparation. */
interface Posted {
  at: number;
  prepared: Promise<Outgoing | null>;
}

/** First event → batch written (ms): long enough to gather a burst of saves, short to lose. */
export const BATCH_WINDOW_MS = 50;
/** Events written at once at most. */
const MAX_BATCH = 500;

interface Outbox {
  /** Each event's preparation (cached reads: subscribers, the contract's diff), in order. */
  events: Posted[];
  timer: NodeJS.Timeout | null;
  /** The batch being written, then the ones after it: one at a time, in order. */
  writing: Promise<void>;
  onError: (error: unknown) => void;
}

const outbox = perContext((): Outbox => ({
  events: [],
  timer: null,
  writing: Promise.resolve(),
  onError: () => {},
}));

/** Item hooks of these items that are on, by item. */
async function itemHooks(itemIds: number[]) {
  const hooks = await Webhook.find(
    { kind: 'item', item_id: { $in: itemIds }, enabled: 1 },
    { id: 1, item_id: 1, events: 1, listening_since: 1, _id: 0 },
  ).lean();
  const byItem = new Map<number, typeof hooks>();
  for (const hook of hooks) {
    const list = byItem.get(hook.item_id) ?? [];
    list.push(hook);
    byItem.set(hook.item_id, list);
  }
  return byItem;
}

/** Writes one batch of events as delivery rows. */
async function writeBatch(batch: Posted[], box: Outbox): Promise<void> {
  const events = (
    await Promise.all(
      batch.map(({ at, prepared }) =>
        prepared.then(
          (outgoing) => outgoing && { ...outgoing, at },
          (error: unknown) => {
            box.onError(error);
            return null;
          },
        ),
      ),
    )
  ).filter((e) => e !== null);
  if (!events.length) return;
  const hooks = await itemHooks([...new Set(events.map((e) => e.input.itemId))]);
  const pushUids = [
    ...new Set(events.flatMap((e) => e.pushTo.filter((uid) => uid > 0 && uid !== e.input.byUid))),
  ];
  // One query finds which of them have a push address at all (most subscribers have none).
  const urls = await pushUrlsOf(pushUids).catch((error: unknown) => {
    box.onError(error);
    return new Map<number, string>();
  });
  const pushHooks = new Map(
    await Promise.all(
      [...urls].map(async ([uid, url]) => {
        try {
          return [uid, await pushHookOf(uid, url)] as const;
        } catch (error) {
          box.onError(error);
          return [uid, null] as const;
        }
      }),
    ),
  );
  const addressed = events
    .map((e) => {
      const ids = (hooks.get(e.input.itemId) ?? [])
        // A hook hears what happened from when it was made or last switched on.
        .filter((h) => h.events.includes(e.input.event) && (h.listening_since ?? 0) <= e.at)
        .map((h) => h.id);
      for (const uid of new Set(e.pushTo)) {
        const hook = uid !== e.input.byUid ? pushHooks.get(uid) : null;
        if (hook) ids.push(hook.id);
      }
      return { input: e.input, ids };
    })
    .filter((e) => e.ids.length);
  if (!addressed.length) return;
  const payloads = await buildPayloads(addressed.map((e) => e.input));
  const rows: QueuedDelivery[] = [];
  addressed.forEach((e, i) => {
    const payload = payloads[i];
    if (payload) for (const hookId of e.ids) rows.push({ hookId, itemId: e.input.itemId, payload });
  });
  await enqueueMany(rows);
}

/** Writes what the outbox holds now, after the batches before it. */
function flush(): Promise<void> {
  const box = outbox();
  if (box.timer) clearTimeout(box.timer);
  box.timer = null;
  const batch = box.events.splice(0, box.events.length);
  if (!batch.length) return box.writing;
  box.writing = box.writing.then(() => writeBatch(batch, box)).catch(box.onError);
  return box.writing;
}

/** Takes an event (called by the handlers; returns at once). */
function post(prepared: Promise<Outgoing | null>): void {
  const box = outbox();
  // Rejections are reported when the batch is written.
  prepared.catch(() => {});
  box.events.push({ at: Date.now(), prepared });
  if (box.events.length >= MAX_BATCH) void flush();
  else if (!box.timer) {
    box.timer = setTimeout(() => void flush(), BATCH_WINDOW_MS);
    box.timer.unref?.();
  }
}

async function ownerOf(itemId: number): Promise<number[]> {
  const item = await findLiveItem(itemId);
  return item ? [item.uid] : [];
}

type Handlers = {
  [N in keyof DomainEvents]?: (payload: DomainEvents[N]) => Promise<Outgoing | null>;
};

const handlers: Handlers = {
  async 'page.saved'({ itemId, pageId, byUid, created, versionId }) {
    const event: HookEvent = created ? 'page.created' : 'page.updated';
    return {
      input: { event, itemId, pageId, byUid, diff: { created, versionId } },
      pushTo: created ? [] : await pageSubscriberUids(pageId),
    };
  },
  async 'page.deleted'({ itemId, pageId, byUid }) {
    return {
      input: { event: 'page.deleted', itemId, pageId, byUid },
      pushTo: await pageSubscriberUids(pageId),
    };
  },
  async 'page.restored'({ itemId, pageId, byUid }) {
    return {
      input: { event: 'page.restored', itemId, pageId, byUid },
      pushTo: await pageSubscriberUids(pageId),
    };
  },
  async 'menu.changed'({ itemId, byUid }) {
    return { input: { event: 'catalog.changed', itemId, byUid }, pushTo: [] };
  },
  async 'comment.changed'({ itemId, pageId, byUid, change }) {
    if (change !== 'added') return null;
    return {
      input: { event: 'comment.added', itemId, pageId, byUid },
      pushTo: await pageSubscriberUids(pageId),
    };
  },
  async 'membership.changed'({ itemId, uids, change, byUid }) {
    return {
      input: {
        event: 'member.changed',
        itemId,
        byUid,
        detail: `${uids.length} member(s) ${change}`,
      },
      pushTo: await ownerOf(itemId),
    };
  },
  async 'item.changed'({ itemId, change, byUid }) {
    if (change !== 'archived' && change !== 'transferred') return null;
    const event: HookEvent = change === 'archived' ? 'item.archived' : 'item.transferred';
    return { input: { event, itemId, byUid }, pushTo: await ownerOf(itemId) };
  },
  async 'contract.changed'({ itemId, byUid, version, breaking, changes }) {
    const contract = await lastContractDiff(itemId);
    const list = contract.changes.map((c) => ({
      endpoint: c.endpoint,
      kind: c.kind,
      breaking: c.breaking,
      text: c.text,
    }));
    return {
      input: {
        event: 'contract.changed',
        itemId,
        byUid,
        detail: `v${version.replace(/^v/i, '')}, ${breaking} breaking of ${changes} change(s)`,
        contract: { version, previous_version: contract.from, breaking, changes: list },
      },
      pushTo: [],
    };
  },
};

/** Starts the listeners and the delivery queue. Returns the stop function (it writes the outbox). */
export function startWebhooks(
  options: Partial<DeliverySettings> & { onError?: (error: unknown) => void } = {},
): () => Promise<void> {
  const onError = options.onError ?? (() => {});
  outbox().onError = onError;
  const stops = Object.entries(handlers).map(([name, handler]) =>
    events.subscribe(
      name as keyof DomainEvents,
      (payload: unknown) => {
        post((handler as (p: unknown) => Promise<Outgoing | null>)(payload));
      },
      { localOnly: true },
    ),
  );
  const stopQueue = startQueue(options, onError);
  return async () => {
    for (const stop of stops) stop();
    // The queue stops taking rows first: the outbox's last rows stay stored for the next start.
    const queueStopped = stopQueue();
    await flush();
    await queueStopped;
  };
}
