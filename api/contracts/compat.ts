/**
 * Controllers outside the specs that Quire answers in ShowDoc's shape (reference accounts §12):
 * maintenance hooks (which refuse after ShowDoc's own checks; the contract still says how they
 * read input) and the public square.
 */
import { z } from 'zod';
import { action, int, nothing, str } from './coerce';

/** Declared for its input: every answer is an error envelope (the feature is off). */
const refused = z.never();

export const updateContract = { checkDb: action({}, nothing) };
export const scriptCronContract = { run: action({}, refused) };
export const PublicSquareItem = z.object({
  item_id: z.number(),
  item_name: z.string(),
  item_description: z.string(),
  item_type: z.string(),
  addtime: z.string(),
  last_update_time: z.string(),
  item_domain: z.string(),
});

export const publicSquareContract = {
  checkEnabled: action({}, z.object({ enable: z.union([z.literal(0), z.literal(1)]) })),
  getPublicItems: action(
    { page: int(1), count: int(20), keyword: str(), search_type: str('title') },
    z.object({ total: z.number(), items: z.array(PublicSquareItem) }),
  ),
};
