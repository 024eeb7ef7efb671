/**
 * `update/checkDb`, `ScriptCron/run` and `publicSquare/*` (one file: each is a line or two;
 * answers and reasons in models/maintenance.ts).
 */
import {
  checkDb,
  publicSquareItems,
  publicSquareState,
  scheduledJobsForbidden,
} from '../../models/compat';
import { defineController } from '../registry';

export const updateController = defineController('update', {
  checkDb: () => checkDb(),
});

export const scriptCronController = defineController('ScriptCron', {
  run: () => scheduledJobsForbidden(),
});

export const publicSquareController = defineController('publicSquare', {
  checkEnabled: () => publicSquareState(),
  getPublicItems: () => publicSquareItems(),
});
