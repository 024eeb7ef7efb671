/**
 * Live API contracts (no ShowDoc table): `api_contract` is an item's followed OpenAPI document —
 * where it comes from, how often it is fetched, the last version stored (the text the next
 * version is compared with) and the outcome of the last check; `api_contract_mark` is the latest
 * contract change of one page ("changed in v1.4 — breaking"), which the reader shows.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../platform';
import type { ContractChange } from './diff';

export const SCHEDULES = ['off', 'hourly', 'daily', 'custom'] as const;
export type Schedule = (typeof SCHEDULES)[number];

export type CheckStatus = '' | 'first' | 'changed' | 'unchanged' | 'error';

export interface ApiContractDoc {
  id: number;
  item_id: number;
  /** Whose rights the sync writes pages with (who set the follow up; the owner for a push). */
  uid: number;
  /** The followed URL ('' = pushed from CI only). */
  source_url: string;
  schedule: Schedule;
  /** Minutes between checks for `custom`. */
  interval_minutes: number;
  /** Unix ms of the next scheduled check (0 = none). */
  next_check_at: number;
  /** Unix ms until which one process holds the check (several may run the scheduler). */
  lease_until: number;
  /** Versions stored so far (1 = the first import). */
  version_count: number;
  /** The last stored document's `info.version`. */
  spec_version: string;
  spec_hash: string;
  /** The last stored document (JSON text), compared with the next one. */
  spec_text: string;
  /** Which page documents which endpoint (`GET /pet`) in which catalog (one per tag). */
  page_map: PageMapEntry[];
  last_check_at: string;
  last_status: CheckStatus;
  last_error: string;
  /** 'url' or 'push': where the last version came from. */
  last_source: string;
  last_changed_at: string;
  /** The last version's changes, breaking first. */
  last_diff: ContractChange[];
  /** The `info.version` the last diff led from. */
  last_diff_from: string;
  created_at: string;
  updated_at: string;
}

export interface PageMapEntry {
  endpoint: string;
  /** The catalog path the import put it under (`pet`), joined by `/`. */
  cat: string;
  page_id: number;
}

export interface ApiContractMarkDoc {
  item_id: number;
  page_id: number;
  /** The contract version (`info.version`) that changed the page. */
  version: string;
  breaking: number;
  changes: ContractChange[];
  at: string;
}

const contractSchema = new Schema<ApiContractDoc>(
  {
    id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    uid: { type: Number, default: 0 },
    source_url: { type: String, default: '' },
    schedule: { type: String, default: 'off' },
    interval_minutes: { type: Number, default: 0 },
    next_check_at: { type: Number, default: 0 },
    lease_until: { type: Number, default: 0 },
    version_count: { type: Number, default: 0 },
    spec_version: { type: String, default: '' },
    spec_hash: { type: String, default: '' },
    spec_text: { type: String, default: '' },
    page_map: { type: Schema.Types.Mixed, default: [] },
    last_check_at: { type: String, default: '' },
    last_status: { type: String, default: '' },
    last_error: { type: String, default: '' },
    last_source: { type: String, default: '' },
    last_changed_at: { type: String, default: '' },
    last_diff: { type: Schema.Types.Mixed, default: [] },
    last_diff_from: { type: String, default: '' },
    created_at: { type: String, default: '' },
    updated_at: { type: String, default: '' },
  },
  { collection: 'api_contract', versionKey: false, minimize: false },
);
contractSchema.index({ id: 1 }, { unique: true });
contractSchema.index({ item_id: 1 }, { unique: true });
contractSchema.index({ next_check_at: 1 });

const markSchema = new Schema<ApiContractMarkDoc>(
  {
    item_id: { type: Number, required: true },
    page_id: { type: Number, required: true },
    version: { type: String, default: '' },
    breaking: { type: Number, default: 0 },
    changes: { type: Schema.Types.Mixed, default: [] },
    at: { type: String, default: '' },
  },
  { collection: 'api_contract_mark', versionKey: false },
);
markSchema.index({ page_id: 1 }, { unique: true });
markSchema.index({ item_id: 1 });

export const ApiContract = defineModel<ApiContractDoc>('ApiContract', contractSchema);
export const ApiContractMark = defineModel<ApiContractMarkDoc>('ApiContractMark', markSchema);
