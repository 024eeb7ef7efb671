/**
 * Mock API (reference pages §7): an editor attaches one mock response (a Mock.js JSON template)
 * to a page; anyone may then fetch its expansion by the mock's key or by its path within the item.
 *
 * Differences from ShowDoc, on purpose:
 *   - Permissions are asked of the page's current item (requirePage), not of a stored item id;
 *     an archived item's mocks cannot be changed (they still answer).
 *   - A mock answers only while its page is live: a page in the recycle bin (or in a deleted
 *     item) stops its mock; restoring the page brings it back. A page purged for good takes its
 *     mock row with it the next time someone asks for it.
 *   - Templates are expanded in-process and vetted first (models/mockTemplate.ts); regex paths are
 *     vetted against catastrophic backtracking (models/mockPath.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../access';
import { ApiError, errors, formatNow, nextId } from '../platform';
import {
  MAX_REQUEST_PATH,
  REGEX_MARK,
  compileMockRegex,
  isRegexPath,
  normalizeMockPath,
} from './mockPath';
import { expandMockTemplate, parseMockTemplate } from './mockTemplate';
import { escapeForClient, Page, requirePage } from '../pages';
import { Item } from '../items';
import { Mock, type MockDoc } from './schemas/mock';

export interface SaveMockInput {
  pageId: number;
  template: string;
  path: string;
}

/** mock/add: creates the page's mock or updates it (keeping its key). */
export async function saveMock(
  actor: Actor,
  input: SaveMockInput,
): Promise<Pick<MockDoc, 'page_id' | 'path' | 'unique_key'>> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const { page } = await requirePage(actor, input.pageId, {
    action: 'mock.update',
  });
  parseMockTemplate(input.template);
  const path = normalizeMockPath(input.path || '/');
  const now = formatNow();
  const changes = { uid: actor.uid, item_id: page.item_id, template: input.template, path };
  const updated = await Mock.findOneAndUpdate(
    { page_id: page.page_id },
    { $set: { ...changes, last_update_time: now } },
    { returnDocument: 'after', lean: true },
  );
  if (updated) return { page_id: page.page_id, path, unique_key: updated.unique_key };
  const uniqueKey = randomBytes(16).toString('hex');
  try {
    await Mock.create({
      ...changes,
      id: await nextId('mock_id'),
      unique_key: uniqueKey,
      page_id: page.page_id,
      view_times: 0,
      addtime: now,
      last_update_time: now,
    });
  } catch (error) {
    // Two first saves raced: the other created the row; save over it.
    if ((error as { code?: unknown }).code !== 11000) throw error;
    return saveMock(actor, input);
  }
  return { page_id: page.page_id, path, unique_key: uniqueKey };
}

/** mock/infoByPageId: the page's mock (template escaped as ShowDoc serves it), or null. */
export async function mockOfPage(
  actor: Actor,
  pageId: number,
  itemPassword: string,
): Promise<MockDoc | null> {
  const { page } = await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword,
  });
  const mock = await Mock.findOne({ page_id: page.page_id }, { _id: 0 }).lean<MockDoc>();
  return mock ? { ...mock, template: escapeForClient(mock.template) } : null;
}

/** Whether a mock may answer: its page is live, in a live item, the item it is asked for. */
async function mockIsLive(mock: MockDoc, itemId?: number): Promise<boolean> {
  const page = await Page.findOne(
    { page_id: mock.page_id },
    { item_id: 1, is_del: 1, _id: 0 },
  ).lean();
  if (!page) {
    await Mock.deleteOne({ id: mock.id }); // purged for good
    return false;
  }
  if (page.is_del || (itemId !== undefined && page.item_id !== itemId)) return false;
  return Boolean(await Item.exists({ item_id: page.item_id, is_del: 0 }));
}

/** A public mock answer: the JSON text, or the HTTP status and plain text ShowDoc answers. */
export type MockAnswer = { status: 200; json: string } | { status: 400 | 404; text: string };

async function expand(mock: MockDoc): Promise<MockAnswer> {
  try {
    return { status: 200, json: await expandMockTemplate(mock.template) };
  } catch (error) {
    const reason = error instanceof ApiError ? error.message : 'Mock.js could not expand it';
    return { status: 400, text: `This mock template cannot be served: ${reason}` };
  }
}

/** `/server/mock-data/<unique_key>`. */
export async function serveMockByKey(uniqueKey: string): Promise<MockAnswer> {
  const noSuchKey = { status: 404, text: 'no such key' } as const;
  if (!/^[0-9a-f]{32}$/.test(uniqueKey)) return noSuchKey;
  const mock = await Mock.findOne({ unique_key: uniqueKey }, { _id: 0 }).lean<MockDoc>();
  if (!mock || !(await mockIsLive(mock))) return noSuchKey;
  return expand(mock);
}

/**
 * `/server/mock-path/<item_id>?path=<path>`: the item's mock with exactly this path, else its
 * first regex mock (in id order) matching the whole path. Counts the view.
 */
export async function serveMockByPath(itemId: number, rawPath: string): Promise<MockAnswer> {
  if (rawPath.length > MAX_REQUEST_PATH) return { status: 400, text: 'path too long' };
  const noSuchPath = { status: 404, text: 'no such path' } as const;
  if (!(itemId > 0)) return noSuchPath;
  const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  const found = await findMockByPath(itemId, path);
  if (!found) return noSuchPath;
  await Mock.updateOne({ id: found.id }, { $inc: { view_times: 1 } });
  return expand(found);
}

async function findMockByPath(itemId: number, path: string): Promise<MockDoc | null> {
  const exact = await Mock.find({ item_id: itemId, path }, { _id: 0 })
    .sort({ id: 1 })
    .lean<MockDoc[]>();
  for (const mock of exact) if (await mockIsLive(mock, itemId)) return mock;
  const regexMocks = await Mock.find(
    { item_id: itemId, path: { $regex: `^${REGEX_MARK}` } },
    { _id: 0 },
  )
    .sort({ id: 1 })
    .lean<MockDoc[]>();
  for (const mock of regexMocks) {
    if (!isRegexPath(mock.path)) continue;
    // Re-vetted on every use: rows may come from an import or an older, laxer rule.
    const compiled = compileMockRegex(mock.path.slice(REGEX_MARK.length));
    if ('regex' in compiled && compiled.regex.test(path) && (await mockIsLive(mock, itemId)))
      return mock;
  }
  return null;
}
