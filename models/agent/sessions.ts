/**
 * "Ask the docs" sessions (`agent/config|sessionList|sessionLoad|sessionNew|sessionReset|
 * sessionDelete|feedback`), answered as ShowDoc's AgentController answers them: who asks (a user,
 * or a guest known by the browser's `guest_token`), whether they may ask here (the item's visit
 * rule, the item's assistant switch, guests only where the item lets them in), and their own
 * sessions only — another asker's session answers as a missing one.
 */
import { type Actor, type ItemAccess, requireAction } from '../access';
import { aiConfigOf, type AiConfig } from '../items';
import { errors, nextId, nowSeconds } from '../platform';
import { getAiService } from '../settings';
import {
  AiChatMessage,
  type AiChatMessageDoc,
  AiChatSession,
  type AiChatSessionDoc,
} from './schemas';

/** Who asks: a user (uid > 0) or a guest's browser id, and the item password they remembered. */
export interface Asker {
  actor: Actor;
  guestToken: string;
  itemPassword: string;
  /** The client address (guest rate limits). */
  client: string;
}

const AI_NOT_CONFIGURED = 'The AI service is not configured, please contact the administrator';
const SESSION_MISSING = 'Session does not exist';
const MAX_SESSIONS = 50;
/** Messages a session shows and sends back to the model. */
export const HISTORY_MESSAGES = 40;
const ITEM_TYPE_LABELS: Record<number, string> = {
  2: 'single_page',
  3: 'runapi',
  4: 'table',
  5: 'whiteboard',
  6: 'kanban',
};

export function isGuest(asker: Asker): boolean {
  return !(asker.actor.uid > 0);
}

/** Guests only on an open item (no visit password) whose managers let them in. */
export function guestsAllowed(access: ItemAccess, config: AiConfig): boolean {
  return config.guest_enabled === 1 && !access.item.password;
}

export interface AskScope {
  itemId: number;
  access: ItemAccess | null;
  config: AiConfig;
}

/** ShowDoc's checks in its order: login for item 0, the guest id, the visit, the guest switch. */
async function checkScope(asker: Asker, itemId: number): Promise<AskScope> {
  const guest = isGuest(asker);
  if (itemId <= 0 && guest) throw errors.notLoggedIn('Please log in first');
  if (guest && asker.guestToken.length < 8)
    throw errors.failed('Missing guest identifier, please refresh the page');
  const access =
    itemId > 0
      ? await requireAction(asker.actor, 'item.useAssistant', itemId, {
          itemPassword: asker.itemPassword,
        })
      : null;
  const config = await aiConfigOf(itemId);
  if (guest && access && !guestsAllowed(access, config))
    throw errors.failed('Guests cannot use the AI assistant on this item');
  return { itemId, access, config };
}

/** checkScope, then: the site has an AI service and the item has its assistant switched on. */
export async function requireAskable(asker: Asker, itemId: number): Promise<AskScope> {
  const scope = await checkScope(asker, itemId);
  if (!(await getAiService())) throw errors.failed(AI_NOT_CONFIGURED);
  if (scope.access && !scope.config.enabled)
    throw errors.failed('The assistant is switched off for this item');
  return scope;
}

export interface AgentConfig {
  enabled: boolean;
  welcome_message: string;
  /** Quire's assistant reads and never edits, so ShowDoc's editing mode stays off. */
  can_edit: false;
  item_type: string;
  is_guest: boolean;
  guest_enabled: boolean;
  dialog_collapsed: number;
}

/** agent/config: whether the asker sees the assistant here, and its welcome. */
export async function agentConfig(asker: Asker, itemId: number): Promise<AgentConfig> {
  const guest = isGuest(asker);
  if (itemId <= 0 && guest) throw errors.notLoggedIn('Please log in first');
  const access =
    itemId > 0
      ? await requireAction(asker.actor, 'item.useAssistant', itemId, {
          itemPassword: asker.itemPassword,
        })
      : null;
  const config = await aiConfigOf(itemId);
  const guestEnabled = access ? guestsAllowed(access, config) : false;
  const service = await getAiService();
  const enabled = service !== null && (!access || config.enabled === 1) && (!guest || guestEnabled);
  return {
    enabled,
    welcome_message: enabled ? config.welcome_message : '',
    can_edit: false,
    item_type: access ? (ITEM_TYPE_LABELS[access.item.item_type] ?? 'regular') : 'regular',
    is_guest: guest,
    guest_enabled: guestEnabled,
    dialog_collapsed: config.dialog_collapsed,
  };
}

function ownerFilter(asker: Asker) {
  return isGuest(asker) ? { uid: 0, guest_token: asker.guestToken } : { uid: asker.actor.uid };
}

/** The asker's own live session, or "Session does not exist". */
export async function ownSession(asker: Asker, sessionId: number): Promise<AiChatSessionDoc> {
  if (!(sessionId > 0)) throw errors.failed('Session ID is required');
  if (isGuest(asker) && asker.guestToken.length < 8) throw errors.failed(SESSION_MISSING);
  const session = await AiChatSession.findOne(
    { id: sessionId, is_del: 0, ...ownerFilter(asker) },
    { _id: 0 },
  ).lean();
  if (!session) throw errors.failed(SESSION_MISSING);
  return session;
}

export interface SessionSummary {
  session_id: number;
  title: string;
  last_message_at: number;
  created_at: number;
  message_count: number;
}

async function sessionsOf(asker: Asker, itemId: number): Promise<SessionSummary[]> {
  const sessions = await AiChatSession.find(
    { ...ownerFilter(asker), item_id: Math.max(0, itemId), is_del: 0 },
    { _id: 0 },
  )
    .sort({ last_message_at: -1, id: -1 })
    .limit(MAX_SESSIONS)
    .lean();
  if (!sessions.length) return [];
  const messages = await AiChatMessage.find(
    { session_id: { $in: sessions.map((s) => s.id) } },
    { session_id: 1, role: 1, content: 1, id: 1, _id: 0 },
  )
    .sort({ id: 1 })
    .lean();
  const counts = new Map<number, number>();
  const firstQuestion = new Map<number, string>();
  for (const m of messages) {
    counts.set(m.session_id, (counts.get(m.session_id) ?? 0) + 1);
    if (m.role === 'user' && !firstQuestion.has(m.session_id))
      firstQuestion.set(m.session_id, m.content);
  }
  return sessions.map((s) => {
    const chars = [...(firstQuestion.get(s.id) ?? '')];
    return {
      session_id: s.id,
      title: chars.length > 20 ? `${chars.slice(0, 20).join('')}...` : chars.join(''),
      last_message_at: s.last_message_at,
      created_at: s.created_at,
      message_count: counts.get(s.id) ?? 0,
    };
  });
}

export async function listSessions(
  asker: Asker,
  itemId: number,
): Promise<{ sessions: SessionSummary[] }> {
  await checkScope(asker, itemId);
  return { sessions: await sessionsOf(asker, itemId) };
}

export interface LoadedMessage {
  id: number;
  role: string;
  content: string;
  feedback: number;
  created_at: number;
  citations: AiChatMessageDoc['citations'];
}

/** The session's latest messages, oldest first. */
export async function sessionMessages(sessionId: number): Promise<AiChatMessageDoc[]> {
  const latest = await AiChatMessage.find({ session_id: sessionId }, { _id: 0 })
    .sort({ id: -1 })
    .limit(HISTORY_MESSAGES)
    .lean();
  return latest.reverse();
}

/** agent/sessionLoad: the asked session (or the latest one), the list and its messages. */
export async function loadSession(asker: Asker, itemId: number, sessionId: number) {
  const scope = await requireAskable(asker, itemId);
  let session: AiChatSessionDoc | null;
  if (sessionId > 0) {
    session = await ownSession(asker, sessionId);
    if (itemId > 0 && session.item_id !== itemId) throw errors.failed(SESSION_MISSING);
  } else {
    session = await AiChatSession.findOne(
      { ...ownerFilter(asker), item_id: Math.max(0, itemId), is_del: 0 },
      { _id: 0 },
    )
      .sort({ last_message_at: -1, id: -1 })
      .lean();
  }
  const messages: LoadedMessage[] = session
    ? (await sessionMessages(session.id)).map((m) => ({
        id: m.id,
        role: m.role,
        content: m.content,
        feedback: m.feedback ?? 0,
        created_at: m.created_at,
        citations: m.citations ?? [],
      }))
    : [];
  return {
    session_id: session?.id ?? 0,
    sessions: await sessionsOf(asker, itemId),
    messages,
    welcome_message: scope.config.welcome_message,
    can_edit: false,
  };
}

/** agent/sessionNew: a fresh session; beyond 50 the oldest are dropped (as ShowDoc does). */
export async function newSession(asker: Asker, itemId: number): Promise<{ session_id: number }> {
  await requireAskable(asker, itemId);
  const now = nowSeconds();
  const id = await nextId('ai_chat_session_id');
  await AiChatSession.create({
    id,
    uid: Math.max(0, asker.actor.uid),
    item_id: Math.max(0, itemId),
    guest_token: isGuest(asker) ? asker.guestToken : '',
    created_at: now,
    last_message_at: now,
    is_del: 0,
  });
  const kept = await AiChatSession.find(
    { ...ownerFilter(asker), item_id: Math.max(0, itemId), is_del: 0 },
    { id: 1, _id: 0 },
  )
    .sort({ last_message_at: -1, id: -1 })
    .lean();
  const old = kept.slice(MAX_SESSIONS).map((s) => s.id);
  if (old.length) await AiChatSession.updateMany({ id: { $in: old } }, { $set: { is_del: 1 } });
  return { session_id: id };
}

/** agent/sessionReset: the session stays, its messages go. */
export async function resetSession(asker: Asker, sessionId: number): Promise<null> {
  const session = await ownSession(asker, sessionId);
  await AiChatMessage.deleteMany({ session_id: session.id });
  return null;
}

export async function deleteSession(asker: Asker, sessionId: number): Promise<null> {
  const session = await ownSession(asker, sessionId);
  await AiChatSession.updateOne({ id: session.id }, { $set: { is_del: 1 } });
  await AiChatMessage.deleteMany({ session_id: session.id });
  return null;
}

/** agent/feedback: 1 helpful, 2 not helpful, 0 taken back — on an answer in one's own session. */
export async function saveFeedback(asker: Asker, msgId: number, feedback: number): Promise<null> {
  if (!(msgId > 0)) throw errors.failed('Message ID is required');
  if (![0, 1, 2].includes(feedback)) throw errors.failed('Invalid feedback value');
  const message = await AiChatMessage.findOne({ id: msgId }, { session_id: 1, _id: 0 }).lean();
  if (!message) throw errors.failed('Message does not exist');
  const session = await AiChatSession.findOne(
    { id: message.session_id, is_del: 0, ...ownerFilter(asker) },
    { _id: 0 },
  ).lean();
  if (!session) throw errors.failed('No permission');
  if (session.item_id > 0)
    await requireAction(asker.actor, 'item.useAssistant', session.item_id, {
      itemPassword: asker.itemPassword,
    });
  await AiChatMessage.updateOne({ id: msgId }, { $set: { feedback } });
  return null;
}

export async function addMessage(
  sessionId: number,
  role: 'user' | 'assistant',
  content: string,
  citations: AiChatMessageDoc['citations'] = [],
): Promise<number> {
  const id = await nextId('ai_chat_message_id');
  const now = nowSeconds();
  await AiChatMessage.create({
    id,
    session_id: sessionId,
    role,
    content,
    feedback: 0,
    created_at: now,
    citations,
  });
  await AiChatSession.updateOne({ id: sessionId }, { $set: { last_message_at: now } });
  return id;
}
