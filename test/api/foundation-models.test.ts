/**
 * The foundation's model functions against a real (embedded) database: numeric ids, accounts,
 * passwords (bcrypt and ShowDoc's legacy hash), login tokens, the event bus, the error table.
 */
import { describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { nextId, raiseCounter } from '../../models/platform/counters';
import { ApiError, defaultMessage } from '../../models/platform/errors';
import { events } from '../../models/platform';
import { createEventBus, type DomainEvents } from '../../models/platform/events';
import { User } from '../../models/accounts/schemas/user';
import { UserToken } from '../../models/accounts/schemas/userToken';
import {
  createUser,
  issueToken,
  revokeTokens,
  setPassword,
  userForToken,
  verifyPassword,
} from '../../models/accounts/users';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser } from '../helpers/users';

serverSuite();
describe('counters', () => {
  test('nextId counts 1, 2, 3 per name and never hands out the same id twice under concurrency', async () => {
    expect(await nextId('probe_a')).toBe(1);
    expect(await nextId('probe_a')).toBe(2);
    expect(await nextId('probe_b')).toBe(1);
    const ids = await Promise.all(Array.from({ length: 25 }, () => nextId('probe_c')));
    expect(new Set(ids).size).toBe(25);
    expect(Math.max(...ids)).toBe(25);
  });

  test('raiseCounter moves a counter forward, never back', async () => {
    await raiseCounter('probe_d', 100_000_000);
    expect(await nextId('probe_d')).toBe(100_000_001);
    await raiseCounter('probe_d', 5);
    expect(await nextId('probe_d')).toBe(100_000_002);
  });
});

describe('accounts', () => {
  test('createUser stores a bcrypt hash, a numeric uid and the user group, and publishes user.created', async () => {
    const seen: DomainEvents['user.created'][] = [];
    const unsubscribe = events.subscribe('user.created', (e) => void seen.push(e));
    const user = await createUser({ username: 'alice_1', password: 'pa55word' });
    await new Promise((resolve) => setImmediate(resolve));
    unsubscribe();

    expect(user.uid).toBeGreaterThan(0);
    expect(user.groupid).toBe(2);
    expect(user.password).toMatch(/^\$2[aby]\$10\$/);
    expect(user.password).not.toContain('pa55word');
    expect(await verifyPassword(user, 'pa55word')).toBe(true);
    expect(await verifyPassword(user, 'wrong')).toBe(false);
    expect(seen).toEqual([{ uid: user.uid, username: 'alice_1', groupid: 2 }]);
  });

  test('usernames are unique, 2–30 letters/digits/_/-/CJK; passwords non-empty and ≤ 100 bytes', async () => {
    await createUser({ username: 'dup_name', password: 'x1' });
    await expect(createUser({ username: 'dup_name', password: 'x2' })).rejects.toMatchObject({
      code: 10101,
    });
    for (const bad of ['a', 'has space', 'mail@example.com', 'x'.repeat(31)])
      await expect(createUser({ username: bad, password: 'pw' })).rejects.toBeInstanceOf(ApiError);
    await expect(createUser({ username: '中文用户', password: 'pw' })).resolves.toBeDefined();
    await expect(createUser({ username: 'emptypw', password: '' })).rejects.toMatchObject({
      code: 10101,
    });
    await expect(
      createUser({ username: 'longpw', password: 'é'.repeat(51) }),
    ).rejects.toMatchObject({ code: 10101 });
  });

  test("legacy ShowDoc hashes verify with ShowDoc's formula", async () => {
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const salt = 'abc';
    const legacy = md5(Buffer.from(md5('oldpass')).toString('base64') + '576hbgh6' + salt);
    expect(await verifyPassword({ password: legacy, salt }, 'oldpass')).toBe(true);
    expect(await verifyPassword({ password: legacy, salt }, 'oldpas')).toBe(false);
  });

  test('setPassword replaces the hash and, when asked, revokes every token of the user', async () => {
    const user = await makeUser({ password: 'first-pass' });
    await setPassword(user.username, 'second-pass', { revokeTokens: true });
    const stored = await User.findOne({ uid: user.uid });
    expect(await verifyPassword(stored!, 'second-pass')).toBe(true);
    expect(await verifyPassword(stored!, 'first-pass')).toBe(false);
    expect(await userForToken(user.user_token)).toBeNull();
    await expect(setPassword('no_such_user', 'x')).rejects.toMatchObject({ code: 10209 });
  });
});

describe('tokens', () => {
  test('issueToken makes a 128-hex token valid for 180 days that resolves to its user', async () => {
    const user = await makeUser();
    expect(user.user_token).toMatch(/^[0-9a-f]{128}$/);
    const row = await UserToken.findOne({ token: user.user_token }).lean();
    expect(row!.token_expire - row!.addtime).toBe(180 * 86_400);
    expect((await userForToken(user.user_token))?.uid).toBe(user.uid);
    expect(await userForToken('f'.repeat(128))).toBeNull();
  });

  test('several tokens per user stay valid together; revokeTokens blanks them all', async () => {
    const user = await makeUser();
    const second = await issueToken(user.uid);
    expect((await userForToken(second.token))?.uid).toBe(user.uid);
    expect((await userForToken(user.user_token))?.uid).toBe(user.uid);
    await revokeTokens(user.uid);
    expect(await userForToken(second.token)).toBeNull();
    expect(await UserToken.countDocuments({ uid: user.uid, token: '' })).toBe(2);
  });

  test('issuing a token blanks expired ones (of all users) and purges rows expired over five years ago', async () => {
    const now = Math.floor(Date.now() / 1000);
    await UserToken.create([
      { id: 900001, uid: 77, token: 'a'.repeat(128), token_expire: now - 10, addtime: now - 100 },
      { id: 900002, uid: 77, token: '', token_expire: now - 6 * 365 * 86_400, addtime: 0 },
    ]);
    await issueToken(78);
    expect((await UserToken.findOne({ id: 900001 }).lean())!.token).toBe('');
    expect(await UserToken.findOne({ id: 900002 }).lean()).toBeNull();
  });
});

describe('event bus', () => {
  test('subscribers get typed payloads after the publisher returns; a failing one hurts nobody', async () => {
    const errors: unknown[] = [];
    const bus = createEventBus((error) => errors.push(error));
    const got: number[] = [];
    bus.subscribe('menu.changed', () => {
      throw new Error('listener broke');
    });
    const off = bus.subscribe('menu.changed', (e) => void got.push(e.itemId));
    bus.publish('menu.changed', { itemId: 7, byUid: 1 });
    expect(got).toEqual([]); // not inside the publisher's call
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual([7]);
    expect(errors).toHaveLength(1);
    off();
    bus.publish('menu.changed', { itemId: 8, byUid: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual([7]);
  });
});

describe('error table', () => {
  test('codes carry their default text; unknown codes get the generic one', () => {
    expect(defaultMessage(10102)).toMatch(/not logged in/i);
    expect(defaultMessage(10404)).toBe('Invalid request');
    expect(defaultMessage(12345)).toBe('error code: 12345');
    expect(new ApiError(10101, 'custom').message).toBe('custom');
  });
});
