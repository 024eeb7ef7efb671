/**
 * Controllers Quire answers for ShowDoc clients without the feature behind them (reference
 * accounts §12): the AI assistant, the public square, maintenance.
 * Most actions refuse after ShowDoc's own checks; the contract still says how they read input.
 */
import { z } from 'zod';
import { action, id, nothing, str } from './coerce';

/** Declared for its input: every answer is an error envelope (the feature is off). */
const refused = z.never();

const agentScope = { item_id: id(), guest_token: str() };

export const agentContract = {
  config: action(
    { item_id: id() },
    z.object({
      enabled: z.boolean(),
      welcome_message: z.string(),
      can_edit: z.boolean(),
      item_type: z.string(),
      is_guest: z.boolean(),
      dialog_collapsed: z.unknown(),
    }),
  ),
  sessionList: action(agentScope, z.object({ sessions: z.array(z.never()) })),
  sessionLoad: action(agentScope, refused),
  sessionNew: action(agentScope, refused),
  agent: action(agentScope, refused),
  sessionReset: action({ session_id: id() }, refused),
  sessionDelete: action({ session_id: id() }, refused),
  agentCancel: action({ session_id: id() }, refused),
  feedback: action({ msg_id: id() }, refused),
};

export const updateContract = { checkDb: action({}, nothing) };
export const scriptCronContract = { run: action({}, refused) };
export const publicSquareContract = {
  checkEnabled: action({}, z.object({ enable: z.literal(0) })),
  getPublicItems: action({}, refused),
};
