/**
 * Parameter learning against the real database: two pages of an item documenting the same
 * parameters, learnt at the same moment, add each parameter once (the second learner's duplicates
 * are skipped, not an error), and every learnt entry is stored with every field of the library's
 * rows — the same row `paramDesc/list` shows for an entry added by hand.
 */
import { beforeAll, expect, test } from '@jest/globals';
import { learnFromPage } from '../../../models/workbench';
import { ParamDescEntry } from '../../../models/workbench/schemas';
import { Page } from '../../../models/pages/schemas';
import { makeItem } from '../../helpers/factories';
import { makePage } from '../../helpers/pages';
import { serverSuite } from '../../helpers/apiSuite';
import { makeUser, type TestUser } from '../../helpers/users';

serverSuite();
let owner: TestUser;
let itemId: number;

beforeAll(async () => {
  owner = await makeUser();
  ({ item_id: itemId } = await makeItem(owner));
});

const TABLE = [
  '## Create an order',
  '',
  '| Parameter | Type | Description |',
  '| --- | --- | --- |',
  '| order_id | int | The order to create |',
  '| amount | float | Amount in cents |',
  '| note | string | Free text for the courier |',
].join('\n');

test('the same parameters learnt from two pages at once are stored once, each row complete', async () => {
  // Saved as drafts (never learnt), then published behind the listener's back: the two learners
  // below are the only ones.
  const pages = await Promise.all([
    makePage(owner, itemId, { content: TABLE, isDraft: 1 }),
    makePage(owner, itemId, { content: `${TABLE}\n\nThe same table again.`, isDraft: 1 }),
  ]);
  await Page.updateMany({ page_id: { $in: pages.map((p) => p.page_id) } }, { is_draft: 0 });
  const added = await Promise.all(pages.map((p) => learnFromPage(p.page_id, owner.uid)));
  expect(added[0] + added[1]).toBe(3);
  const rows = await ParamDescEntry.find({ item_id: itemId }, { _id: 0, id: 0 })
    .sort({ name: 1 })
    .lean();
  expect(rows.map((r) => `${r.name}:${r.type}`)).toEqual([
    'amount:float',
    'note:string',
    'order_id:int',
  ]);
  const fields = Object.keys(ParamDescEntry.schema.paths).filter((f) => !['_id', 'id'].includes(f));
  for (const row of rows) {
    expect(Object.keys(row).sort()).toEqual(fields.sort());
    expect(row).toMatchObject({
      source: 'auto-extracted',
      status: 'temp',
      example: '',
      usage_count: 0,
      created_by: owner.uid,
    });
  }
  // Learning the same page again adds nothing.
  expect(await learnFromPage(pages[0].page_id, owner.uid)).toBe(0);
});
