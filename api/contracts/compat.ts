/**
 * Controllers Quire answers for ShowDoc clients without the feature behind them (reference
 * accounts §12): the kanban log, the public square, maintenance.
 * Most actions refuse after ShowDoc's own checks; the contract still says how they read input.
 */
import { z } from 'zod';
import { action, id, nothing, str } from './coerce';

/** Declared for its input: every answer is an error envelope (the feature is off). */
const refused = z.never();

export const kanbanContract = {
  logEvent: action({ item_id: id(), event_type: str() }, refused),
  getActivity: action({ item_id: id() }, refused),
  exportActivity: action({ item_id: id() }, refused),
};

export const updateContract = { checkDb: action({}, nothing) };
export const scriptCronContract = { run: action({}, refused) };
export const publicSquareContract = {
  checkEnabled: action({}, z.object({ enable: z.literal(0) })),
  getPublicItems: action({}, refused),
};
