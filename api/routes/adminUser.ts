/**
 * `adminUser/*` (reference accounts §9.21): the back office's user list, add/edit and delete.
 * Rules in models/accounts/adminUsers.ts (the delete, which takes memberships too, in
 * models/backOffice).
 */
import { listUsers, saveUser } from '../../models/accounts';
import { deleteUserAccount } from '../../models/backOffice';
import { adminActionMissing } from '../../models/compat';
import { paging } from '../../models/notices';
import { requireAdmin } from '../auth';
import { adminUserContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

const PAGE_SIZE = 20;

/** Called by ShowDoc's front end, absent from ShowDoc's open-source server (models/compat). */
async function missing(ctx: ActionContext): Promise<never> {
  const { actor } = await requireAdmin(ctx);
  return adminActionMissing(actor);
}

export const adminUserController = defineController('adminUser', adminUserContract, {
  async getList(ctx) {
    const { actor } = await requireAdmin(ctx);
    return listUsers(actor, ctx.input.username, paging(ctx.input.page, ctx.input.count, PAGE_SIZE));
  },

  async addUser(ctx) {
    const { actor } = await requireAdmin(ctx);
    await saveUser(actor, {
      uid: ctx.input.uid,
      username: ctx.input.username,
      password: ctx.input.password,
      name: ctx.input.name,
    });
    return [];
  },

  async deleteUser(ctx) {
    const { actor } = await requireAdmin(ctx);
    await deleteUserAccount(actor, ctx.input.uid);
    return [];
  },

  ban: missing,
  loginLog: missing,
});
