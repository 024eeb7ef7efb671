/**
 * `ai_token/*`: the MCP endpoint's access tokens (ShowDoc's AiTokenController). Optional fields
 * of update are read raw so "not sent" differs from "sent empty" (ShowDoc's `null` default).
 */
import { z } from 'zod';
import { action, int, raw, str } from './coerce';

const tokenRow = z.object({
  id: z.number(),
  uid: z.number(),
  name: z.string(),
  permission: z.enum(['read', 'write']),
  scope: z.enum(['all', 'selected']),
  allowed_items: z.string(),
  can_create_item: z.number(),
  can_delete_item: z.number(),
  auto_add_created_item: z.number(),
  write_directly: z.number(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  is_active: z.number(),
  token_preview: z.string(),
  is_expired: z.number(),
});

const message = z.object({ message: z.string() });
const tokenFields = {
  name: raw(),
  permission: raw(),
  scope: raw(),
  allowed_items: raw(),
  can_create_item: raw(),
  can_delete_item: raw(),
  auto_add_created_item: raw(),
  write_directly: raw(),
  expires_at: raw(),
};

export const aiTokenContract = {
  list: action({}, z.object({ tokens: z.array(tokenRow), total: z.number() })),
  detail: action(
    { id: int() },
    tokenRow.extend({
      allowed_items_detail: z
        .array(z.object({ item_id: z.number(), item_name: z.string() }))
        .optional(),
    }),
  ),
  create: action(
    { ...tokenFields, name: str() },
    z.object({ token: z.string(), message: z.string(), id: z.number() }),
  ),
  update: action({ id: int(), ...tokenFields }, message),
  reset: action({ id: int() }, z.object({ token: z.string(), message: z.string() })),
  revoke: action({ id: int() }, message),
  delete: action({ id: int() }, message),
  availableItems: action(
    {},
    z.object({
      items: z.array(z.object({ item_id: z.number(), item_name: z.string() })),
      total: z.number(),
    }),
  ),
};
