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

const feed = perContext(() => ({ url: '' }));

/** Set once at start from the configuration ('' = no update checks). */
export function configureUpdateFeed(url: string): void {
  feed().url = url;
}

export interface UpdateInfo {
  /** The running version, e.g. "v1.2.0". */
  version: string;
  /** The newest released version ('' when unknown). */
  new_version: string;
  url: string;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Asks the feed; 10101 with one plain sentence when it is not configured or cannot be read. */
export async function checkForUpdate(currentVersion: string): Promise<UpdateInfo> {
  const feedUrl = feed().url;
  if (!feedUrl) throw errors.failed('No release feed is configured (UPDATE_FEED_URL)');
  let body: Record<string, unknown>;
  try {
    const response = await policyFetch(feedUrl, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FEED_TIMEOUT_MS),
      redirect: 'follow',
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const raw = await response.text();
    if (raw.length > MAX_FEED_BYTES) throw new Error('feed too large');
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch (error) {
    // UPDATE_FEED_URL is the operator's own setting: the refusal may name the address.
    if (isAddressRefusal(error)) throw error;
    throw errors.failed('The release feed cannot be reached; nothing was changed');
  }
  const newest = text(body.version) || text(body.new_version) || text(body.tag_name);
  const link = text(body.url) || text(body.html_url);
  return {
    version: currentVersion,
    new_version: newest ? `v${newest.replace(/^v/i, '')}` : '',
    url: /^https?:\/\//i.test(link) ? link : '',
  };
}
