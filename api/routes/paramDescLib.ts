/** `paramDescLib/*` (ShowDoc's ParamDescLibController): the item's parameter-description library. */
import { readStr } from '../contracts';
import { errors } from '../../models/platform';
import {
  addBatch,
  addEntry,
  batchSave,
  deleteEntries,
  exportEntries,
  libraryStats,
  listEntries,
  previewImport,
  promoteTemp,
  updateEntry,
  updateUsage,
  type EntryInput,
} from '../../models/workbench';
import { requireLogin } from '../auth';
import { paramDescLibContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

const TEXT_FIELDS = [
  'name',
  'type',
  'description',
  'example',
  'defaultValue',
  'path',
  'source',
  'status',
] as const;
const LIST_FIELDS = ['enumValues', 'aliases', 'tags'] as const;

/** A list sent as an array or as JSON text; undefined when absent. */
function listOf(value: unknown, name: string): unknown[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // falls through to the refusal
    }
  }
  throw errors.badParam(name);
}

function entryOf(input: Record<string, unknown>): EntryInput {
  const entry: EntryInput = {};
  for (const name of TEXT_FIELDS) {
    if (input[name] === undefined || input[name] === null) continue;
    const value = readStr(input[name], '');
    if (value === null) throw errors.badParam(name);
    entry[name] = value;
  }
  for (const name of LIST_FIELDS) {
    const value = listOf(input[name], name);
    if (value !== undefined) entry[name] = value;
  }
  return entry;
}

async function add(
  ctx: ActionContext<Record<string, unknown> & { itemId: number }>,
  temp: boolean,
) {
  const { actor } = await requireLogin(ctx);
  const entry = entryOf(ctx.input);
  if (temp) entry.status = 'temp';
  return addEntry(actor, ctx.input.itemId, entry);
}

async function batch(ctx: ActionContext<{ entries?: unknown }>) {
  const { actor } = await requireLogin(ctx);
  return addBatch(actor, listOf(ctx.input.entries, 'entries') ?? []);
}

export const paramDescLibController = defineController('paramDescLib', paramDescLibContract, {
  async getEntries(ctx) {
    const { actor } = await requireLogin(ctx);
    return listEntries(actor, ctx.input);
  },
  addEntry: (ctx) => add(ctx, false),
  addTempEntry: (ctx) => add(ctx, true),
  temp: (ctx) => add(ctx, true),

  async updateEntry(ctx) {
    const { actor } = await requireLogin(ctx);
    return updateEntry(actor, ctx.input.id, entryOf(ctx.input));
  },

  async deleteEntry(ctx) {
    const { actor } = await requireLogin(ctx);
    if (!ctx.input.id) throw errors.operationFailed('id is missing');
    return deleteEntries(actor, [ctx.input.id]);
  },

  async deleteEntries(ctx) {
    const { actor } = await requireLogin(ctx);
    return deleteEntries(actor, ctx.input.ids);
  },

  async promoteTemp(ctx) {
    const { actor } = await requireLogin(ctx);
    return promoteTemp(actor, ctx.input.ids);
  },

  addBatchEntries: batch,
  confirmImport: batch,

  async batchSave(ctx) {
    const { actor } = await requireLogin(ctx);
    return batchSave(actor, ctx.input.itemId, listOf(ctx.input.entries, 'entries') ?? []);
  },

  async updateUsage(ctx) {
    const { actor } = await requireLogin(ctx);
    return updateUsage(actor, ctx.input.id ? [ctx.input.id] : ctx.input.ids);
  },

  async stats(ctx) {
    const { actor } = await requireLogin(ctx);
    return libraryStats(actor, ctx.input.itemId);
  },

  async import(ctx) {
    const { actor } = await requireLogin(ctx);
    const { itemId, format, rawText } = ctx.input;
    return previewImport(actor, itemId, format, rawText);
  },

  async export(ctx) {
    const { actor } = await requireLogin(ctx);
    return exportEntries(actor, ctx.input.itemId, ctx.input.format);
  },
});
