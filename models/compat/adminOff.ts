/**
 * Back-office calls of ShowDoc's web front end that Quire leaves out, answered after the same
 * admin check ShowDoc makes:
 *   - actions its front end calls but ShowDoc's open-source server does not have (keyword,
 *     recommendation, ban and whitelist of items, the visit list, user bans, the login log, the
 *     old OAuth form names): a clear refusal, as Quire has no such feature either;
 *   - the self-update (`adminUpdate/download|updateFiles`): Quire never rewrites its own files,
 *     a new release is installed by the operator;
 *   - `adminSetting/testAiService`: ShowDoc's parameter check, then "no AI service" (the AI
 *     assistant is not part of Quire yet).
 */
import { requireSiteAdmin, type Actor } from '../access';
import { errors } from '../platform';

/** An admin action ShowDoc's open-source server lacks too. */
export function adminActionMissing(actor: Actor): never {
  requireSiteAdmin(actor);
  throw errors.failed('This back-office action is not available in this edition');
}

/** adminUpdate/download and adminUpdate/updateFiles. */
export function selfUpdateRefused(actor: Actor): never {
  requireSiteAdmin(actor);
  throw errors.failed(
    'Quire does not update itself: install the new release and restart the server',
  );
}

/** adminSetting/testAiService. */
export function aiServiceTest(actor: Actor, input: { host: string; key: string }): never {
  requireSiteAdmin(actor);
  if (!input.host.trim() || !input.key.trim())
    throw errors.failed('The AI service address and key are required');
  throw errors.failed('The AI service cannot be used in this version yet');
}
