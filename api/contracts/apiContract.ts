/**
 * `apiContract/*`: Quire's own controller (no ShowDoc counterpart) for live API contracts — an
 * item follows an OpenAPI/Swagger URL (info, follow, unfollow, check) and its readers see the
 * marks of changed endpoints (mark). CI pushes a document through `open/pushSpec` instead.
 */
import { z } from 'zod';
import { action, id, int, str } from './coerce';

export const contractChange = z.object({
  endpoint: z.string(),
  method: z.string(),
  path: z.string(),
  kind: z.string(),
  breaking: z.boolean(),
  where: z.string(),
  field: z.string(),
  removed: z.array(z.string()).optional(),
  added: z.array(z.string()).optional(),
  text: z.string(),
});

export const contractInfo = z.object({
  following: z.number(),
  source_url: z.string(),
  schedule: z.enum(['off', 'hourly', 'daily', 'custom']),
  interval_minutes: z.number(),
  next_check_at: z.string(),
  last_check_at: z.string(),
  last_status: z.enum(['', 'first', 'changed', 'unchanged', 'error']),
  last_error: z.string(),
  last_source: z.string(),
  spec_version: z.string(),
  version_count: z.number(),
  last_changed_at: z.string(),
  last_diff_from: z.string(),
  last_diff: z.array(contractChange),
});

export const syncResult = z.object({
  status: z.enum(['first', 'changed', 'unchanged']),
  version: z.string(),
  changes: z.array(contractChange),
  pages_created: z.number(),
  pages_updated: z.number(),
});

export const apiContractContract = {
  info: action({ item_id: id() }, contractInfo),
  follow: action(
    { item_id: id(), url: str(), schedule: str('daily'), interval_minutes: int(60) },
    contractInfo,
  ),
  unfollow: action({ item_id: id() }, contractInfo),
  check: action({ item_id: id() }, syncResult),
  /** `mark` null: the page has no contract change to show. */
  mark: action(
    { page_id: id() },
    z.object({
      mark: z
        .object({
          page_id: z.number(),
          version: z.string(),
          breaking: z.number(),
          changes: z.array(contractChange),
          at: z.string(),
        })
        .nullable(),
    }),
  ),
};
