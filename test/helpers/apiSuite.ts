/**
 * The set-up most API and realtime suites share, registered once per test file like the browser
 * suites' browserSuite(): a Quire (silent logs) for the file and, when `item` is given, an item
 * owned by `owner` with `editor` as an edit member and `reader` as a read-only one; `stranger`
 * belongs to nothing. The fields are filled in by beforeAll: read them inside tests and hooks.
 */
import { afterAll, beforeAll } from '@jest/globals';
import type { ShowdocClient } from './client';
import { addMember, makeItem, type MakeItemOptions } from './factories';
import { startTestServer, type TestServer, type TestServerOptions } from './server';
import { makeUser, type TestUser } from './users';

export interface ApiSuite {
  server: TestServer;
  owner: TestUser;
  editor: TestUser;
  reader: TestUser;
  stranger: TestUser;
  /** The shared item (0 when the suite asked for none). */
  itemId: number;
  /** The ShowDoc client logged in as `user`. */
  as(user: TestUser): ShowdocClient;
}

type UserOptions = Parameters<typeof makeUser>[0];

export function apiSuite(
  options: {
    /** Make the shared item with these options (`{}` for a public one); none when left out. */
    item?: MakeItemOptions;
    /** Options for each user (display names, admin). */
    users?: Partial<Record<'owner' | 'editor' | 'reader' | 'stranger', UserOptions>>;
    env?: TestServerOptions['env'];
    /** Runs before the server stops (close sockets and providers the tests opened). */
    teardown?: () => Promise<void> | void;
  } = {},
): ApiSuite {
  const suite = {
    itemId: 0,
    as: (user: TestUser) => suite.server.api.withToken(user.user_token),
  } as ApiSuite;
  beforeAll(async () => {
    suite.server = await startTestServer({ env: { LOG_LEVEL: 'silent', ...options.env } });
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
  afterAll(async () => {
    await options.teardown?.();
    await suite.server?.stop();
  });
  return suite;
}
