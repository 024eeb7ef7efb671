/**
 * The AI features Quire leaves out (ShowDoc's AI assistant `agent/*` and the per-item knowledge-base
 * settings `item/getAiConfig|setAiConfig`), answered as
 * ShowDoc 3.9 answers them while no AI service is configured: the same permission checks first,
 * then "disabled" shapes or the same errors. ShowDoc's clients hide the AI entry points on these
 * answers instead of failing.
 */
import { requireAction, type Actor } from '../access';
import { errors } from '../platform';
import { AI_CONFIG_OFF, type AiConfig } from '../items';

const AI_NOT_CONFIGURED = 'The AI service is not configured, please contact the administrator';
const SESSION_MISSING = 'Session does not exist';
const ITEM_TYPE_LABELS: Record<number, string> = {
  2: 'single_page',
  3: 'runapi',
  4: 'table',
  5: 'whiteboard',
  6: 'kanban',
};

/** What ShowDoc's agent actions require before they look at the AI service. */
async function agentScope(actor: Actor, itemId: number): Promise<void> {
  if (itemId <= 0 && actor.uid <= 0) throw errors.notLoggedIn('Please log in first');
  if (itemId > 0) await requireAction(actor, 'item.useAssistant', itemId);
}

export interface AgentConfig {
  enabled: false;
  welcome_message: string;
  can_edit: false;
  /** ShowDoc's label of the item's type ('regular', 'single_page', 'runapi', …). */
  item_type: string;
  is_guest: boolean;
  dialog_collapsed: number;
}

/** agent/config: the assistant is off everywhere (ShowDoc: no AI service URL/key set). */
export async function agentConfig(actor: Actor, itemId: number): Promise<AgentConfig> {
  await agentScope(actor, itemId);
  let itemType = 'regular';
  if (itemId > 0) {
    const access = await requireAction(actor, 'item.useAssistant', itemId);
    itemType = ITEM_TYPE_LABELS[access.item.item_type] ?? 'regular';
  }
  return {
    enabled: false,
    welcome_message: '',
    can_edit: false,
    item_type: itemType,
    is_guest: actor.uid <= 0,
    dialog_collapsed: AI_CONFIG_OFF.dialog_collapsed,
  };
}

/** agent/sessionLoad|sessionNew|agent: refused after the access checks, as ShowDoc does. */
export async function agentUnavailable(
  actor: Actor,
  input: { itemId: number; guestToken: string },
): Promise<never> {
  await agentScope(actor, input.itemId);
  if (actor.uid <= 0 && input.guestToken.length < 8)
    throw errors.failed('Missing guest identifier, please refresh the page');
  if (actor.uid <= 0) throw errors.failed('Guests cannot use the AI assistant yet');
  throw errors.failed(AI_NOT_CONFIGURED);
}

/** agent/sessionList: nobody has sessions. */
export async function agentSessions(
  actor: Actor,
  input: { itemId: number; guestToken: string },
): Promise<{ sessions: [] }> {
  await agentScope(actor, input.itemId);
  if (actor.uid <= 0 && input.guestToken.length < 8)
    throw errors.failed('Missing guest identifier, please refresh the page');
  if (actor.uid <= 0) throw errors.failed('Guests cannot use the AI assistant yet');
  return { sessions: [] };
}

/** agent/sessionReset|sessionDelete|agentCancel (by session) and agent/feedback (by message). */
export function agentSessionAction(id: number, what: 'session' | 'message'): never {
  if (!(id > 0))
    throw errors.failed(what === 'session' ? 'Session ID is required' : 'Message ID is required');
  throw errors.failed(what === 'session' ? SESSION_MISSING : 'Message does not exist');
}

/** item/getAiConfig: the item's knowledge base settings — always the "off" row. */
export async function itemAiConfig(actor: Actor, itemId: number): Promise<AiConfig> {
  if (!(itemId > 0)) throw errors.failed('Item ID is required');
  await requireAction(actor, 'item.useAssistant', itemId);
  return { ...AI_CONFIG_OFF };
}

/**
 * item/setAiConfig: a manager may send it, but there is no AI service to switch on; the call
 * is refused so the client never believes the assistant was enabled.
 */
export async function setItemAiConfig(
  actor: Actor,
  itemId: number,
  fields: string[],
): Promise<never> {
  if (!(itemId > 0)) throw errors.failed('Item ID is required');
  await requireAction(actor, 'item.readSettings', itemId);
  if (!fields.length) throw errors.failed('Nothing to update');
  throw errors.failed(AI_NOT_CONFIGURED);
}
