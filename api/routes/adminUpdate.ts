/**
 * `adminUpdate/checkUpdate` (reference accounts §9.24): the newest version from the configured
 * release feed, for the back office's about screen. Admins only (ShowDoc answered anyone, which
 * let visitors make the server call out). Quire never installs updates itself, so ShowDoc's
 * `download` and `updateFiles` are not served. Rules in models/updates.ts.
 */
import { checkForUpdate } from '../../models/platform';
import { requireAdmin } from '../auth';
import { defineController } from '../registry';
import { packageVersion } from './common';

export const adminUpdateController = defineController('adminUpdate', {
  async checkUpdate(ctx) {
    await requireAdmin(ctx);
    return checkForUpdate(packageVersion());
  },
});
