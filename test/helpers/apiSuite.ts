/**
 * serverSuite(): a Quire (silent logs) for the test file, started in beforeAll and stopped in
 * afterAll, with `as(user)` for that user's ShowDoc client; suites that make their own users use it.
 *
 * apiSuite(): the set-up most API and realtime suites share, registered once per test file like the browser
 * suites' browserSuite(): a Quire (silent logs) for the file and, when `item` is given, an item
 * owned by `owner` with `editor` as an edit member and `reader` as a read-only one; `stranger`
 * belongs to nothing. The fields are filled in by beforeAll: read them inside tests and hooks.
 */
import { afterAll, beforeAll } from '@jest/globals';
import type { ShowdocClient } from './client';
import { addMember, makeItem, type MakeItemOptions } from './factories';
import { startTestServer, type TestServer, type TestServerOptions } from './server';
import { makeUser, type TestUser } from './users';

export interface ServerSuite {
  server: TestServer;
  /** The ShowDoc client logged in as `user`. */
  as(user: TestUser): ShowdocClient;
}

export interface ServerSuiteOptions {
  env?: TestServerOptions['env'];
  /** Runs before the server stops (close sockets and providers the tests opened). */
  teardown?: () => Promise<void> | void;
}

export function serverSuite(options: ServerSuiteOptions = {}): ServerSuite {
  const suite = {
    as: (user: TestUser) => suite.server.api.withToken(user.user_token),
  } as ServerSuite;
  beforeAll(async () => {
    suite.server = await startTestServer({ env: { LOG_LEVEL: 'silent', ...options.env } });
  });
  afterAll(async () => {
    await options.teardown?.();
    await suite.server?.stop();
  });
  return suite;
}

export interface ApiSuite extends ServerSuite {
  owner: TestUser;
  editor: TestUser;
  reader: TestUser;
  stranger: TestUser;
  /** The shared item (0 when the suite asked for none). */
  itemId: number;
}

type UserOptions = Parameters<typeof makeUser>[0];

export function apiSuite(
  options: ServerSuiteOptions & {
    /** Make the shared item with these options (`{}` for a public one); none when left out. */
    item?: MakeItemOptions;
    /** Options for each user (display names, admin). */
    users?: Partial<Record<'owner' | 'editor' | 'reader' | 'stranger', UserOptions>>;
  } = {},
): ApiSuite {
  const suite = Object.assign(serverSuite(options), { itemId: 0 }) as ApiSuite;
  beforeAll(async () => {
    const users = options.users ?? {};
    [suite.owner, suite.editor, suite.reader, suite.stranger] = await Promise.all([
      makeUser(users.owner),
      makeUser(users.editor),
      makeUser(users.reader),
      makeUser(users.stranger),
    ]);
    if (options.item) {
      suite.itemId = (await makeItem(suite.owner, options.item)).item_id;
      await addMember(suite.itemId, suite.editor, 1);
      await addMember(suite.itemId, suite.reader, 0);
    }
  });
  return suite;
}
