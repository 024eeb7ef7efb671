/**
 * Following an item's API contract: its managers set the OpenAPI/Swagger URL and how often it is
 * fetched (off, hourly, daily, every N minutes), check it now, or stop following; a CI job pushes
 * a document with the item's api_key + api_token instead (`open/pushSpec`). One check at a time
 * per item: a check holds the contract's lease (`lease_until`), so a scheduled fetch, a "check
 * now" and a push never write the same pages at once, in one process or several.
 *
 * The URL is fetched through the one address policy (private hosts only when
 * ALLOW_PRIVATE_HOSTS lists them), with a time limit and a size limit. It is shown to the item's
 * managers only, and never logged (it may carry a token).
 */
import { type Actor, requireAction } from '../access';
import { User } from '../accounts';
import { requirePage } from '../pages';
import {
  addressPolicy,
  errors,
  formatNow,
  formatUnixOrEmpty,
  isApiError,
  nextId,
  policyFetch,
  resolveChecked,
} from '../platform';
import { type KeyHolder, parseSpecText } from '../transfer';
import type { ContractChange } from './diff';
import {
  ApiContract,
  type ApiContractDoc,
  ApiContractMark,
  type ApiContractMarkDoc,
  type CheckStatus,
  type Schedule,
  SCHEDULES,
} from './schemas';
import { applySpec, MAX_SPEC_BYTES, type SyncResult } from './sync';

const MAX_URL_LENGTH = 2000;
/** Custom schedules: every 5 minutes at most often, once a week at least. */
export const MIN_INTERVAL = 5;
export const MAX_INTERVAL = 7 * 24 * 60;
/** How long a check may hold the lease (a fetch, a diff and the page writes). */
const LEASE_MS = 5 * 60_000;
const FETCH_TIMEOUT_MS = 30_000;

export interface ContractInfo {
  following: number;
  source_url: string;
  schedule: Schedule;
  interval_minutes: number;
  next_check_at: string;
  last_check_at: string;
  last_status: CheckStatus;
  last_error: string;
  last_source: string;
  spec_version: string;
  version_count: number;
  last_changed_at: string;
  last_diff_from: string;
  /** The last version's changes, breaking first. */
  last_diff: ContractChange[];
}

export interface MarkRow {
  page_id: number;
  version: string;
  breaking: number;
  changes: ContractChange[];
  at: string;
}

export function intervalOf(contract: Pick<ApiContractDoc, 'schedule' | 'interval_minutes'>) {
  if (contract.schedule === 'hourly') return 60;
  if (contract.schedule === 'daily') return 24 * 60;
  if (contract.schedule === 'custom') return contract.interval_minutes;
  return 0;
}

const isoOrEmpty = (ms: number) => formatUnixOrEmpty(Math.floor(ms / 1000));

function infoOf(contract: ApiContractDoc | null): ContractInfo {
  return {
    following: contract?.source_url ? 1 : 0,
    source_url: contract?.source_url ?? '',
    schedule: contract?.schedule ?? 'off',
    interval_minutes: contract ? intervalOf(contract) : 0,
    next_check_at:
      contract && contract.source_url && contract.schedule !== 'off'
        ? isoOrEmpty(contract.next_check_at)
        : '',
    last_check_at: contract?.last_check_at ?? '',
    last_status: contract?.last_status ?? '',
    last_error: contract?.last_error ?? '',
    last_source: contract?.last_source ?? '',
    spec_version: contract?.spec_version ?? '',
    version_count: contract?.version_count ?? 0,
    last_changed_at: contract?.last_changed_at ?? '',
    last_diff_from: contract?.last_diff_from ?? '',
    last_diff: contract?.last_diff ?? [],
  };
}

const findContract = (itemId: number) =>
  ApiContract.findOne({ item_id: itemId }, { _id: 0 }).lean<ApiContractDoc>();

/** apiContract/info: the follow, its last check and its last diff. */
export async function contractInfo(actor: Actor, itemId: number): Promise<ContractInfo> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  await requireAction(actor, 'contract.read', itemId);
  return infoOf(await findContract(itemId));
}

/** The last version's changes and the version they led from (webhook deliveries). */
export async function lastContractDiff(
  itemId: number,
): Promise<{ changes: ContractChange[]; from: string }> {
  const found = await ApiContract.findOne(
    { item_id: itemId },
    { last_diff: 1, last_diff_from: 1, _id: 0 },
  ).lean<Pick<ApiContractDoc, 'last_diff' | 'last_diff_from'>>();
  return { changes: found?.last_diff ?? [], from: found?.last_diff_from ?? '' };
}

/** An http(s) URL the address policy lets the server fetch. */
async function checkSourceUrl(raw: string): Promise<string> {
  const url = raw.trim();
  if (!url || url.length > MAX_URL_LENGTH) throw errors.failed('The URL is missing or too long');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw errors.failed('The URL must be an http or https address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw errors.failed('The URL must be an http or https address');
  await resolveChecked(addressPolicy('API contract sync'), parsed.hostname);
  return url;
}

/** The row of the item, made on first use. */
async function ensureContract(itemId: number, uid: number): Promise<ApiContractDoc> {
  const found = await findContract(itemId);
  if (found) return found;
  const now = formatNow();
  try {
    await ApiContract.create({
      id: await nextId('api_contract_id'),
      item_id: itemId,
      uid,
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    // Two first uses raced: the other made it.
    if ((error as { code?: unknown }).code !== 11000) throw error;
  }
  return (await findContract(itemId))!;
}

export interface FollowInput {
  itemId: number;
  url: string;
  schedule: string;
  intervalMinutes: number;
}

/** apiContract/follow: sets (or changes) the URL and schedule; the follower's rights write pages. */
export async function followContract(actor: Actor, input: FollowInput): Promise<ContractInfo> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  await requireAction(actor, 'contract.manage', input.itemId);
  if (!(SCHEDULES as readonly string[]).includes(input.schedule))
    throw errors.failed(`Unknown schedule: ${input.schedule}`);
  const schedule = input.schedule as Schedule;
  const minutes = schedule === 'custom' ? Math.trunc(input.intervalMinutes) : 0;
  if (schedule === 'custom' && !(minutes >= MIN_INTERVAL && minutes <= MAX_INTERVAL))
    throw errors.failed(`The interval must be ${MIN_INTERVAL} to ${MAX_INTERVAL} minutes`);
  const url = await checkSourceUrl(input.url);
  const contract = await ensureContract(input.itemId, actor.uid);
  const interval = intervalOf({ schedule, interval_minutes: minutes });
  // A URL never fetched is due at once; otherwise the schedule runs from now.
  const fresh = url !== contract.source_url || !contract.spec_hash;
  const next = interval ? Date.now() + (fresh ? 0 : interval * 60_000) : 0;
  await ApiContract.updateOne(
    { id: contract.id },
    {
      $set: {
        uid: actor.uid,
        source_url: url,
        schedule,
        interval_minutes: minutes,
        next_check_at: next,
        updated_at: formatNow(),
      },
    },
  );
  return infoOf(await findContract(input.itemId));
}

/** apiContract/unfollow: no more fetching; the stored version stays (a push compares with it). */
export async function unfollowContract(actor: Actor, itemId: number): Promise<ContractInfo> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  await requireAction(actor, 'contract.manage', itemId);
  await ApiContract.updateOne(
    { item_id: itemId },
    { $set: { source_url: '', schedule: 'off', next_check_at: 0, updated_at: formatNow() } },
  );
  return infoOf(await findContract(itemId));
}

/** Takes the item's lease; null when another check holds it. */
async function takeLease(itemId: number): Promise<ApiContractDoc | null> {
  const now = Date.now();
  return ApiContract.findOneAndUpdate(
    { item_id: itemId, lease_until: { $lte: now } },
    { $set: { lease_until: now + LEASE_MS } },
    { returnDocument: 'after', projection: { _id: 0 } },
  ).lean<ApiContractDoc>();
}

/** How long "check now" and a push wait for a check under way to finish. */
const LEASE_WAIT_MS = 20_000;

/** takeLease, waiting a while for a check under way (a scheduled one finishing, say). */
async function awaitLease(itemId: number): Promise<ApiContractDoc> {
  const end = Date.now() + LEASE_WAIT_MS;
  for (;;) {
    const contract = await takeLease(itemId);
    if (contract) return contract;
    if (Date.now() > end) throw errors.failed('A check of this contract is already running');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Gives the lease back and sets the next scheduled check from now. */
async function releaseLease(contract: ApiContractDoc): Promise<void> {
  const fresh = await findContract(contract.item_id);
  const interval = fresh && fresh.source_url ? intervalOf(fresh) : 0;
  await ApiContract.updateOne(
    { id: contract.id },
    { $set: { lease_until: 0, next_check_at: interval ? Date.now() + interval * 60_000 : 0 } },
  );
}

async function readLimited(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_SPEC_BYTES) throw errors.fileTooLarge('The API document is too large');
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Fetches the followed document under the address policy. */
export async function fetchSpec(url: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await policyFetch(
      url,
      {
        headers: {
          accept: 'application/json, application/yaml;q=0.9, */*;q=0.5',
          'user-agent': 'Quire-ContractSync/1',
        },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      },
      addressPolicy('API contract sync'),
    );
  } catch (error) {
    if (isApiError(error)) throw error;
    const timedOut = (error as Error)?.name === 'TimeoutError';
    throw errors.failed(
      timedOut ? 'The URL did not answer in time' : 'The URL could not be reached',
    );
  }
  if (response.status < 200 || response.status >= 300) {
    await response.body?.cancel().catch(() => undefined);
    throw errors.failed(`The URL answered HTTP ${response.status}`);
  }
  return parseSpecText(await readLimited(response));
}

async function followerActor(uid: number): Promise<Actor> {
  const user = await User.findOne({ uid }, { uid: 1, username: 1, _id: 0 }).lean<{
    uid: number;
    username: string;
  }>();
  if (!user) throw errors.failed('The user who set up the follow no longer exists');
  // The follower's own rights on the item, never a site admin's.
  return { uid: user.uid, username: user.username, groupid: 0 };
}

/** Runs one check of a contract whose lease the caller holds; records the outcome. */
async function runCheck(
  contract: ApiContractDoc,
  obtain: () => Promise<Record<string, unknown>>,
  actor: Actor,
  source: 'url' | 'push',
): Promise<SyncResult> {
  try {
    return await applySpec(contract, await obtain(), actor, source);
  } catch (error) {
    const message = isApiError(error) ? error.message : 'The check failed';
    await ApiContract.updateOne(
      { id: contract.id },
      {
        $set: {
          last_check_at: formatNow(),
          last_status: 'error',
          last_error: message.slice(0, 500),
          last_source: source,
        },
      },
    );
    throw error;
  } finally {
    await releaseLease(contract);
  }
}

/** A scheduled check (scheduler.ts) of a contract whose lease the caller took. */
export async function scheduledCheck(contract: ApiContractDoc): Promise<SyncResult> {
  return runCheck(
    contract,
    () => fetchSpec(contract.source_url),
    await followerActor(contract.uid),
    'url',
  );
}

/** apiContract/check: fetches the followed URL now, as the manager who asks. */
export async function checkContractNow(actor: Actor, itemId: number): Promise<SyncResult> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  await requireAction(actor, 'contract.manage', itemId);
  const found = await findContract(itemId);
  if (!found?.source_url) throw errors.failed('This item follows no OpenAPI URL');
  const contract = await awaitLease(itemId);
  return runCheck(contract, () => fetchSpec(contract.source_url), actor, 'url');
}

/** open/pushSpec: a CI job sends the document (JSON or YAML text) with the item's key. */
export async function pushSpec(holder: KeyHolder, text: string): Promise<SyncResult> {
  if (!text.trim()) throw errors.failed('spec is required');
  await requireAction(holder.actor, 'contract.manage', holder.itemId);
  const doc = await parseSpecText(text);
  await ensureContract(holder.itemId, holder.actor.uid);
  const contract = await awaitLease(holder.itemId);
  return runCheck(contract, async () => doc, holder.actor, 'push');
}

/** apiContract/mark: the page's latest contract change, for its readers (null: none). */
export async function pageContractMark(
  actor: Actor,
  pageId: number,
  itemPassword: string,
): Promise<MarkRow | null> {
  const { page } = await requirePage(actor, pageId, { action: 'page.read', itemPassword });
  const mark = await ApiContractMark.findOne(
    { page_id: page.page_id, item_id: page.item_id },
    { _id: 0 },
  ).lean<ApiContractMarkDoc>();
  if (!mark) return null;
  return {
    page_id: mark.page_id,
    version: mark.version,
    breaking: mark.breaking,
    changes: mark.changes,
    at: mark.at,
  };
}

/** The due contract with its lease taken for this process, or null (scheduler.ts). */
export async function claimDue(): Promise<ApiContractDoc | null> {
  const now = Date.now();
  return ApiContract.findOneAndUpdate(
    {
      source_url: { $ne: '' },
      schedule: { $ne: 'off' },
      next_check_at: { $gt: 0, $lte: now },
      lease_until: { $lte: now },
    },
    { $set: { lease_until: now + LEASE_MS } },
    { sort: { next_check_at: 1 }, returnDocument: 'after', projection: { _id: 0 } },
  ).lean<ApiContractDoc>();
}
