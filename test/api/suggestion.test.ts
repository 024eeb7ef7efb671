/**
 * suggestion/* (suggest mode, issue #41): who may propose (editors; read-only members only when
 * the item's suggest_only_readers is on), who may accept or reject (editors only), that accepting
 * saves a version holding only the accepted text while rejected ones never reach page_content,
 * per-author review, bad input refused with nothing written, live pushes and reminders; and MCP
 * writes on an item in suggest mode: suggestions under a default token, direct writes under a
 * `write_directly` token.
 */
import { describe, expect, test } from '@jest/globals';
import { PageSuggestion } from '../../models/suggestions/schemas';
import { subscribeToPage } from '../../models/notices';
import { apiSuite } from '../helpers/apiSuite';
import { callTool, makeAiToken } from '../helpers/mcp';
import { makePage } from '../helpers/pages';
import { closeAllSockets, connectClient } from '../helpers/sockets';
import type { TestUser } from '../helpers/users';

const suite = apiSuite({ item: {}, teardown: closeAllSockets });
const as = (user: TestUser) => suite.as(user);

interface Row {
  suggestion_id: number;
  author_key: string;
  author_name: string;
  is_agent: number;
  old_text: string;
  new_text: string;
  before: string;
  after: string;
}
interface List {
  suggestions: Row[];
  can_review: boolean;
  can_suggest: boolean;
}

/** A change replacing the first `old` in `text` by `next`, as the editor sends it. */
function change(text: string, old: string, next: string) {
  const from = text.indexOf(old);
  if (from < 0) throw new Error(`"${old}" not in the text`);
  return {
    from,
    old_text: old,
    new_text: next,
    before: text.slice(Math.max(0, from - 32), from),
    after: text.slice(from + old.length, from + old.length + 32),
  };
}

const propose = (user: TestUser, pageId: number, changes: unknown[]) =>
  as(user).call('suggestion/propose', { page_id: pageId, changes: JSON.stringify(changes) });

const pageText = async (pageId: number) =>
  (await as(suite.owner).ok<{ page_content: string }>('page/info', { page_id: pageId }))
    .page_content;

const setSuggestMode = (on: boolean) =>
  as(suite.owner).ok('item/update', { item_id: suite.itemId, suggest_only_readers: on ? 1 : 0 });

const TEXT = 'The quick brown fox jumps over the lazy dog.';

describe('suggestion/*', () => {
  test('an editor proposes; the text stays as it was and readers see the suggestion', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: TEXT });
    const ids = await as(suite.editor).ok<{ suggestion_ids: number[] }>('suggestion/propose', {
      page_id: page.page_id,
      changes: JSON.stringify([change(TEXT, 'quick', 'slow')]),
    });
    expect(ids.suggestion_ids).toHaveLength(1);
    expect(await pageText(page.page_id)).toBe(TEXT);
    const seen = await as(suite.reader).ok<List>('suggestion/list', { page_id: page.page_id });
    expect(seen.suggestions).toMatchObject([
      { old_text: 'quick', new_text: 'slow', author_name: suite.editor.username, is_agent: 0 },
    ]);
    expect(seen).toMatchObject({ can_review: false, can_suggest: false });
    const info = await as(suite.reader).ok<{ suggestion_count: number }>('page/info', {
      page_id: page.page_id,
    });
    expect(info.suggestion_count).toBe(1);

    // The count follows each proposal and review at once (page/info keeps it between them).
    const count = async () =>
      (
        await as(suite.reader).ok<{ suggestion_count: number }>('page/info', {
          page_id: page.page_id,
        })
      ).suggestion_count;
    await as(suite.editor).ok('suggestion/propose', {
      page_id: page.page_id,
      changes: JSON.stringify([change(TEXT, 'lazy', 'sleepy')]),
    });
    expect(await count()).toBe(2);
    await as(suite.owner).ok('suggestion/reject', {
      page_id: page.page_id,
      suggestion_ids: ids.suggestion_ids[0],
    });
    expect(await count()).toBe(1);
  });

  test('a read-only member proposes only when the item is in suggest mode, and never reviews', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: TEXT });
    const refused = await propose(suite.reader, page.page_id, [change(TEXT, 'lazy', 'sleepy')]);
    expect(refused.body.error_code).toBe(10303);
    expect(await PageSuggestion.countDocuments({ page_id: page.page_id })).toBe(0);
    const info = await as(suite.reader).ok<{ item_suggest: boolean }>('item/info', {
      item_id: suite.itemId,
    });
    expect(info.item_suggest).toBe(false);

    await setSuggestMode(true);
    try {
      expect(
        (
          await as(suite.reader).ok<{ item_suggest: boolean }>('item/info', {
            item_id: suite.itemId,
          })
        ).item_suggest,
      ).toBe(true);
      const made = await propose(suite.reader, page.page_id, [change(TEXT, 'lazy', 'sleepy')]);
      expect(made.body.error_code).toBe(0);
      const list = await as(suite.reader).ok<List>('suggestion/list', { page_id: page.page_id });
      expect(list.can_suggest).toBe(true);
      expect(list.can_review).toBe(false);
      const id = list.suggestions[0].suggestion_id;
      for (const action of ['suggestion/accept', 'suggestion/reject'])
        expect(
          (await as(suite.reader).fail(action, { page_id: page.page_id, suggestion_ids: id }))
            .error_code,
        ).toBe(10303);
      // A visitor of the public item reads them but is no member: no proposing.
      const visitor = await propose(suite.stranger, page.page_id, [change(TEXT, 'dog', 'cat')]);
      expect(visitor.body.error_code).toBe(10303);
      expect(await pageText(page.page_id)).toBe(TEXT);
    } finally {
      await setSuggestMode(false);
    }
  });

  test('accepting one and rejecting another: the saved version holds only the accepted text', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: TEXT });
    const made = await as(suite.editor).ok<{ suggestion_ids: number[] }>('suggestion/propose', {
      page_id: page.page_id,
      changes: JSON.stringify([
        change(TEXT, 'brown ', ''),
        change(TEXT, 'lazy', 'sleepy'),
        {
          from: TEXT.length,
          old_text: '',
          new_text: ' The end.',
          before: TEXT.slice(-32),
          after: '',
        },
      ]),
    });
    const [removeBrown, sleepy, theEnd] = made.suggestion_ids;
    const accepted = await as(suite.owner).ok<{ accepted: number[]; stale: number[] }>(
      'suggestion/accept',
      { page_id: page.page_id, suggestion_ids: `${removeBrown},${theEnd}` },
    );
    expect(accepted).toMatchObject({ accepted: expect.arrayContaining([removeBrown, theEnd]) });
    expect(accepted.stale).toEqual([]);
    await as(suite.owner).ok('suggestion/reject', {
      page_id: page.page_id,
      suggestion_ids: sleepy,
    });

    const expected = 'The quick fox jumps over the lazy dog. The end.';
    expect(await pageText(page.page_id)).toBe(expected);
    const history = await as(suite.owner).ok<Array<{ page_content: string }>>('page/history', {
      page_id: page.page_id,
    });
    // The version before the accept is the original text; no version ever held "sleepy".
    expect(history[0].page_content).toBe(TEXT);
    expect(JSON.stringify(history)).not.toContain('sleepy');
    const left = await as(suite.owner).ok<List>('suggestion/list', { page_id: page.page_id });
    expect(left.suggestions).toEqual([]);
    // Closed suggestions cannot be reviewed again.
    expect(
      (
        await as(suite.owner).fail('suggestion/accept', {
          page_id: page.page_id,
          suggestion_ids: sleepy,
        })
      ).error_code,
    ).toBe(10101);
  });

  test('accept all by one author leaves the other author’s suggestions open', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: TEXT });
    await propose(suite.editor, page.page_id, [
      change(TEXT, 'quick', 'swift'),
      change(TEXT, 'dog', 'cat'),
    ]);
    await propose(suite.owner, page.page_id, [change(TEXT, 'jumps', 'leaps')]);
    const list = await as(suite.owner).ok<List>('suggestion/list', { page_id: page.page_id });
    const editorKey = list.suggestions.find((s) => s.new_text === 'swift')!.author_key;
    expect(editorKey).toBe(`user:${suite.editor.uid}`);
    await as(suite.owner).ok('suggestion/accept', { page_id: page.page_id, author_key: editorKey });
    expect(await pageText(page.page_id)).toBe('The swift brown fox jumps over the lazy cat.');
    const left = await as(suite.owner).ok<List>('suggestion/list', { page_id: page.page_id });
    expect(left.suggestions.map((s) => s.new_text)).toEqual(['leaps']);
  });

  test('bad input is refused and writes nothing', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: TEXT });
    const cases: unknown[] = [
      'not json',
      { from: 0 },
      [],
      [{ from: 'x', old_text: 'The', new_text: 'A' }],
      [{ from: 0, old_text: { $ne: '' }, new_text: 'A' }],
      [change(TEXT, 'quick', 'quick')],
      [{ from: 0, old_text: 'not in the page', new_text: 'x', before: '', after: '' }],
      Array.from({ length: 51 }, () => change(TEXT, 'fox', 'cat')),
    ];
    for (const changes of cases) {
      const answer = await as(suite.editor).call('suggestion/propose', {
        page_id: page.page_id,
        changes: typeof changes === 'string' ? changes : JSON.stringify(changes),
      });
      expect(answer.body.error_code).toBe(10101);
    }
    expect(await PageSuggestion.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(
      (await as(suite.owner).fail('suggestion/accept', { page_id: page.page_id })).error_code,
    ).toBe(10101);
    expect(
      (await suite.server.api.fail('suggestion/propose', { page_id: page.page_id })).error_code,
    ).toBe(10102);
  });

  test("a proposal is pushed to the page's room and reminds its subscribers", async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: TEXT });
    await subscribeToPage(suite.owner.uid, page.page_id);
    const watcher = await connectClient(suite.server.url, { user_token: suite.owner.user_token });
    await watcher.watch({ page_id: page.page_id });
    await propose(suite.editor, page.page_id, [change(TEXT, 'over', 'past')]);
    expect(await watcher.waitFor('page:suggestions')).toEqual({
      item_id: suite.itemId,
      page_id: page.page_id,
      change: 'proposed',
    });
    const notice = await watcher.waitFor('notice');
    expect(JSON.stringify(notice)).toContain(suite.editor.username);
    const reminders = await as(suite.owner).ok<{ list: unknown[] }>('message/getRemindList');
    expect(JSON.stringify(reminders.list)).toContain(page.page_title);
    watcher.close();
  });
});

describe('MCP writes on an item in suggest mode', () => {
  test('a default token’s update_page becomes suggestions; a write_directly token writes', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: TEXT });
    const plain = await makeAiToken(suite.server, suite.editor);
    const direct = await makeAiToken(suite.server, suite.editor, { write_directly: 1 });
    // Outside suggest mode a default token writes as before.
    const before = await callTool(suite.server, plain.token, 'update_page', {
      page_id: page.page_id,
      page_content: TEXT.replace('dog', 'hound'),
    });
    expect(before.data).toMatchObject({ message: 'Page updated' });
    const current = TEXT.replace('dog', 'hound');

    await setSuggestMode(true);
    try {
      const suggested = await callTool(suite.server, plain.token, 'update_page', {
        page_id: page.page_id,
        page_content: current.replace('quick brown', 'clever red').replace('hound', 'hound!'),
      });
      expect(suggested.data).toMatchObject({ suggested: true });
      expect(String(suggested.data!.message)).toMatch(/awaits review/);
      expect(await pageText(page.page_id)).toBe(current);
      const list = await as(suite.owner).ok<List>('suggestion/list', { page_id: page.page_id });
      expect(list.suggestions.length).toBeGreaterThanOrEqual(2);
      expect(list.suggestions.every((s) => s.is_agent === 1)).toBe(true);
      expect(list.suggestions[0].author_name).toContain("token 'test-bot'");
      // Accepting all of the agent's suggestions gives the text it asked for.
      await as(suite.owner).ok('suggestion/accept', {
        page_id: page.page_id,
        author_key: list.suggestions[0].author_key,
      });
      expect(await pageText(page.page_id)).toBe(
        current.replace('quick brown', 'clever red').replace('hound', 'hound!'),
      );

      const diffed = await callTool(suite.server, plain.token, 'update_page_diff', {
        page_id: page.page_id,
        diffs: [{ old_text: 'jumps', new_text: 'leaps' }],
      });
      expect(diffed.data).toMatchObject({ suggested: true });
      expect(await pageText(page.page_id)).not.toContain('leaps');

      const written = await callTool(suite.server, direct.token, 'update_page', {
        page_id: page.page_id,
        page_content: 'Written directly.',
      });
      expect(written.data).toMatchObject({ message: 'Page updated' });
      expect(await pageText(page.page_id)).toBe('Written directly.');
      const detail = await as(suite.editor).ok<{ write_directly: number }>('ai_token/detail', {
        id: direct.id,
      });
      expect(detail.write_directly).toBe(1);
    } finally {
      await setSuggestMode(false);
    }
  });
});
