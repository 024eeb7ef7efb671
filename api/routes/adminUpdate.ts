/**
 * `adminUpdate/checkUpdate` (reference accounts §9.24): the running version and the newest one
 * from the configured release feed, for the back office's about screen. Answered without a login
 * as ShowDoc does (its back office sends no token with it); only a site admin makes the server
 * ask the feed afresh. Quire never installs updates itself: ShowDoc's `download` and
 * `updateFiles` answer so, to admins only (models/compat/adminOff.ts). Rules in
 * models/platform/updates.ts.
 */
import { selfUpdateRefused } from '../../models/compat';
import { checkForUpdate } from '../../models/platform';
import { isSiteAdmin } from '../../models/access';
import { optionalLogin, requireAdmin } from '../auth';
import { defineController } from '../registry';
import { packageVersion } from './common';

export const adminUpdateController = defineController('adminUpdate', {
  async checkUpdate(ctx) {
    const { actor } = await optionalLogin(ctx);
    return checkForUpdate(packageVersion(), { fresh: isSiteAdmin(actor) });
  },

  async download(ctx) {
    const { actor } = await requireAdmin(ctx);
    return selfUpdateRefused(actor);
  },

  async updateFiles(ctx) {
    const { actor } = await requireAdmin(ctx);
    return selfUpdateRefused(actor);
  },
});
