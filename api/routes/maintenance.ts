/**
 * `update/checkDb`, `ScriptCron/run` and `publicSquare/*` (one file: each is a line or two;
 * the answers in models/compat/maintenance.ts and models/search/publicSquare.ts).
 */
import { checkDb, scheduledJobsForbidden } from '../../models/compat';
import { publicSquareItems, publicSquareState } from '../../models/search';
import { publicSquareContract } from '../contracts';
import { optionalLogin } from '../auth';
import { defineController } from '../registry';

export const updateController = defineController('update', {
  checkDb: () => checkDb(),
});

export const scriptCronController = defineController('ScriptCron', {
  run: () => scheduledJobsForbidden(),
});

export const publicSquareController = defineController('publicSquare', publicSquareContract, {
  checkEnabled: () => publicSquareState(),
  getPublicItems: async (ctx) =>
    publicSquareItems((await optionalLogin(ctx)).actor, {
      page: ctx.input.page,
      count: ctx.input.count,
      keyword: ctx.input.keyword,
      searchType: ctx.input.search_type,
    }),
});
