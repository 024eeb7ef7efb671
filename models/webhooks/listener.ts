/**
 * Domain events → queued deliveries. Subscribes to the one event catalogue
 * (models/platform/events.ts), events of this process only (each process queues its own writes'
 * events once; the queue is shared through the collection). The handler runs after the write has
 * answered (the bus runs listeners in a microtask) and only writes rows: sending is the queue's.
 *
 * Who receives an event:
 * - the item's enabled hooks that chose it;
 * - users' push addresses (ShowDoc's `user/savePushUrl`): page events and comments go to the
 *   page's subscribers, item and member events to the item's owner — never to the user who
 *   caused the event. A push address gets the generic JSON body; it is signed with a secret of its
 *   own that Quire does not show (ShowDoc's push address has none), so receivers of push
 *   addresses should not rely on the signature.
 */
import { randomBytes } from 'node:crypto';
import { findLiveItem } from '../access';
import { pushUrlsOf } from '../accounts';
import { pageSubscriberUids } from '../notices';
import { type DomainEvents, events, formatNow, isAddressRefusal, nextId } from '../platform';
import { lastContractDiff } from '../contracts';
import { checkReceiver, enqueue } from './hooks';
import { buildPayload, type PayloadInput } from './payload';
import { type DeliverySettings, startQueue } from './queue';
import { type HookEvent, Webhook, type WebhookDocFields } from './schemas';

/** The user's push-address hook, made or brought up to date from `push_url` (null: none). */
async function pushHookOf(uid: number, url: string): Promise<WebhookDocFields | null> {
  const hook = await Webhook.findOne({ kind: 'user', uid }, { _id: 0 }).lean<WebhookDocFields>();
  if (!url) return null;
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
      secret: `whsec_${randomBytes(24).toString('hex')}`,
      enabled: 1,
      fail_count: 0,
      disabled_reason: '',
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

/**
 * The push-address hooks of these users: one query finds who has an address at all (most
 * subscribers have none), then each address's hook is looked up or made.
 */
async function pushHooksOf(uids: number[]): Promise<(WebhookDocFields | null)[]> {
  const urls = await pushUrlsOf(uids);
  // A user who cleared the address keeps the hook row; it is simply not used.
  return Promise.all([...urls].map(([uid, url]) => pushHookOf(uid, url)));
}

async function dispatch(input: PayloadInput, pushTo: readonly number[]): Promise<void> {
  const [hooks, pushHooks] = await Promise.all([
    Webhook.find(
      { kind: 'item', item_id: input.itemId, enabled: 1, events: input.event },
      { id: 1, _id: 0 },
    ).lean(),
    pushHooksOf([...new Set(pushTo)].filter((uid) => uid > 0 && uid !== input.byUid)),
  ]);
  const ids = [
    ...hooks.map((h) => h.id),
    ...pushHooks.filter((h): h is WebhookDocFields => h !== null).map((h) => h.id),
  ];
  if (!ids.length) return;
  const payload = await buildPayload(input);
  if (payload) await enqueue(ids, input.itemId, payload);
}

async function ownerOf(itemId: number): Promise<number[]> {
  const item = await findLiveItem(itemId);
  return item ? [item.uid] : [];
}

type Handlers = { [N in keyof DomainEvents]?: (payload: DomainEvents[N]) => Promise<void> };

const handlers: Handlers = {
  async 'page.saved'({ itemId, pageId, byUid, created }) {
    const event: HookEvent = created ? 'page.created' : 'page.updated';
    await dispatch(
      { event, itemId, pageId, byUid, diff: { created } },
      created ? [] : await pageSubscriberUids(pageId),
    );
  },
  async 'page.deleted'({ itemId, pageId, byUid }) {
    await dispatch(
      { event: 'page.deleted', itemId, pageId, byUid },
      await pageSubscriberUids(pageId),
    );
  },
  async 'page.restored'({ itemId, pageId, byUid }) {
    await dispatch(
      { event: 'page.restored', itemId, pageId, byUid },
      await pageSubscriberUids(pageId),
    );
  },
  async 'menu.changed'({ itemId, byUid }) {
    await dispatch({ event: 'catalog.changed', itemId, byUid }, []);
  },
  async 'comment.changed'({ itemId, pageId, byUid, change }) {
    if (change !== 'added') return;
    await dispatch(
      { event: 'comment.added', itemId, pageId, byUid },
      await pageSubscriberUids(pageId),
    );
  },
  async 'membership.changed'({ itemId, uids, change, byUid }) {
    await dispatch(
      { event: 'member.changed', itemId, byUid, detail: `${uids.length} member(s) ${change}` },
      await ownerOf(itemId),
    );
  },
  async 'item.changed'({ itemId, change, byUid }) {
    if (change !== 'archived' && change !== 'transferred') return;
    const event: HookEvent = change === 'archived' ? 'item.archived' : 'item.transferred';
    await dispatch({ event, itemId, byUid }, await ownerOf(itemId));
  },
  async 'contract.changed'({ itemId, byUid, version, breaking, changes }) {
    const contract = await lastContractDiff(itemId);
    const list = contract.changes.map((c) => ({
      endpoint: c.endpoint,
      kind: c.kind,
      breaking: c.breaking,
      text: c.text,
    }));
    await dispatch(
      {
        event: 'contract.changed',
        itemId,
        byUid,
        detail: `v${version.replace(/^v/i, '')}, ${breaking} breaking of ${changes} change(s)`,
        contract: {
          version,
          previous_version: contract.from,
          breaking,
          changes: list,
        },
      },
      [],
    );
  },
};

/** Starts the listeners and the delivery queue. Returns the stop function. */
export function startWebhooks(
  options: Partial<DeliverySettings> & { onError?: (error: unknown) => void } = {},
): () => Promise<void> {
  const onError = options.onError ?? (() => {});
  const stops = Object.entries(handlers).map(([name, handler]) =>
    events.subscribe(
      name as keyof DomainEvents,
      async (payload: unknown) => {
        try {
          await (handler as (p: unknown) => Promise<void>)(payload);
        } catch (error) {
          onError(error);
        }
      },
      { localOnly: true },
    ),
  );
  const stopQueue = startQueue(options, onError);
  return async () => {
    for (const stop of stops) stop();
    await stopQueue();
  };
}
