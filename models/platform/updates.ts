/**
 * The back office's update check (`adminUpdate/checkUpdate`, spec 002 §4): asks the release feed
 * named by UPDATE_FEED_URL for the newest version. Read-only: Quire is installed with npm or a
 * container image, so it never downloads or replaces its own files (ShowDoc's download and
 * updateFiles steps); the answer links to the release instead.
 *
 * The feed is any URL answering JSON with the newest version as `version` (an npm registry
 * `.../<package>/latest` document), `new_version`, or `tag_name` (a GitHub "latest release"), and
 * optionally a page to read about it as `url` or `html_url`.
 */
import { isAddressRefusal, policyFetch } from './addressPolicy';
import { perContext } from './context';
import { errors } from './errors';

const FEED_TIMEOUT_MS = 3000;
const MAX_FEED_BYTES = 256 * 1024;
/** How long a feed answer serves callers who may not make the server ask again (visitors). */
const FEED_CACHE_MS = 60 * 60 * 1000;

interface FeedState {
  url: string;
  /** The last answer (null: the feed could not be read) and when it was asked. */
  last: { at: number; newest: Newest | null } | null;
  asking: Promise<Newest | null> | null;
}

const feed = perContext((): FeedState => ({ url: '', last: null, asking: null }));

/** Set once at start from the configuration ('' = no update checks). */
export function configureUpdateFeed(url: string): void {
  const state = feed();
  state.url = url;
  state.last = null;
}

export interface UpdateInfo {
  /** The running version, e.g. "v1.2.0". */
  version: string;
  /** The newest released version ('' when unknown). */
  new_version: string;
  url: string;
}

type Newest = Pick<UpdateInfo, 'new_version' | 'url'>;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The feed's answer, or null when it cannot be read; remembered for the cached path. `failure`
 * receives why it could not be read (an admin's fresh check reports an address refusal as is).
 */
async function askFeed(
  state: FeedState,
  failure?: (error: unknown) => void,
): Promise<Newest | null> {
  const newest = await readFeed(state.url).catch((error: unknown) => {
    failure?.(error);
    return null;
  });
  state.last = { at: Date.now(), newest };
  return newest;
}

async function readFeed(url: string): Promise<Newest> {
  const response = await policyFetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(FEED_TIMEOUT_MS),
    redirect: 'follow',
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const raw = await response.text();
  if (raw.length > MAX_FEED_BYTES) throw new Error('feed too large');
  const body = JSON.parse(raw) as Record<string, unknown>;
  const version = text(body.version) || text(body.new_version) || text(body.tag_name);
  const link = text(body.url) || text(body.html_url);
  return {
    new_version: version ? `v${version.replace(/^v/i, '')}` : '',
    url: /^https?:\/\//i.test(link) ? link : '',
  };
}

/**
 * `adminUpdate/checkUpdate`. ShowDoc answers it without a login, and its back office calls it
 * without a token (a GET, whose body — where its client puts the token — is never sent), so
 * everyone gets the running version. The feed's answer is added only where a feed is configured:
 * - `fresh` (a site admin): the feed is asked now; when it cannot be read, 10101 with one sentence;
 * - anyone else: the last answer, the feed being asked at most once per FEED_CACHE_MS (concurrent
 *   callers share one request), so visitors cannot make the server call out at will; a feed that
 *   cannot be read then just adds nothing.
 */
export async function checkForUpdate(
  currentVersion: string,
  options: { fresh: boolean },
): Promise<UpdateInfo> {
  const state = feed();
  const nothing: UpdateInfo = { version: currentVersion, new_version: '', url: '' };
  if (!state.url) return nothing;
  let newest: Newest | null;
  if (options.fresh) {
    let failure: unknown = null;
    newest = await askFeed(state, (error) => (failure = error));
    // UPDATE_FEED_URL is the operator's own setting: the refusal may name the address.
    if (isAddressRefusal(failure)) throw failure;
    if (!newest) throw errors.failed('The release feed cannot be reached; nothing was changed');
  } else if (state.last && Date.now() - state.last.at < FEED_CACHE_MS) newest = state.last.newest;
  else {
    state.asking ??= askFeed(state).finally(() => {
      state.asking = null;
    });
    newest = await state.asking;
  }
  return newest ? { version: currentVersion, ...newest } : nothing;
}
