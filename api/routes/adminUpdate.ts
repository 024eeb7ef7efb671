/**
 * `adminUpdate/checkUpdate` (reference accounts §9.24): the newest version from the configured
 * release feed, for the back office's about screen. Admins only (ShowDoc answered anyone, which
 * let visitors make the server call out). Quire never installs updates itself: ShowDoc's
 * `download` and `updateFiles` answer so (models/compat/adminOff.ts). Rules in models/updates.ts.
 */
import { selfUpdateRefused } from '../../models/compat';
import { checkForUpdate } from '../../models/platform';
import { requireAdmin } from '../auth';
import { defineController } from '../registry';
import { packageVersion } from './common';

export const adminUpdateController = defineController('adminUpdate', {
  async checkUpdate(ctx) {
    await requireAdmin(ctx);
    return checkForUpdate(packageVersion());
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
