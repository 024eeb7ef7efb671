/**
 * `agent/*`: the "Ask the docs" assistant with ShowDoc's parameters and answers (its AiAgentDialog
 * drives them). `agent/agent` answers a server-sent-event stream after its checks, so no envelope
 * `data` is declared for it. A guest is known by `guest_token` (the browser's id).
 */
import { z } from 'zod';
import { action, id, int, nothing, str } from './coerce';

const guest = { guest_token: str() };
const scope = { item_id: id(), ...guest };

const Citation = z.object({
  page_id: z.number(),
  item_id: z.number(),
  page_title: z.string(),
  addtime: z.number(),
  version: z.number(),
});

const SessionSummary = z.object({
  session_id: z.number(),
  title: z.string(),
  last_message_at: z.number(),
  created_at: z.number(),
  message_count: z.number(),
});

export const agentContract = {
  config: action(
    scope,
    z.object({
      enabled: z.boolean(),
      welcome_message: z.string(),
      can_edit: z.boolean(),
      item_type: z.string(),
      is_guest: z.boolean(),
      guest_enabled: z.boolean(),
      dialog_collapsed: z.number(),
    }),
  ),
  sessionList: action(scope, z.object({ sessions: z.array(SessionSummary) })),
  sessionLoad: action(
    { ...scope, session_id: id() },
    z.object({
      session_id: z.number(),
      sessions: z.array(SessionSummary),
      messages: z.array(
        z.object({
          id: z.number(),
          role: z.string(),
          content: z.string(),
          feedback: z.number(),
          created_at: z.number(),
          citations: z.array(Citation),
        }),
      ),
      welcome_message: z.string(),
      can_edit: z.boolean(),
    }),
  ),
  sessionNew: action(scope, z.object({ session_id: z.number() })),
  sessionReset: action({ session_id: id(), ...guest }, nothing),
  sessionDelete: action({ session_id: id(), ...guest }, nothing),
  agentCancel: action({ session_id: id(), turn_token: str(), ...guest }, nothing),
  feedback: action({ msg_id: id(), feedback: int(), ...guest }, nothing),
  agent: action(
    {
      ...scope,
      session_id: id(),
      message: str(),
      page_id: id(),
      turn_token: str(),
    },
    z.never(),
  ),
};
