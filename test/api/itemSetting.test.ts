/**
 * The item setting screen's base-info save over real HTTP: `item/update` changes the personal
 * domain (letters and digits, unique, '' removes it) and the new address opens the item.
 */
import { describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas';
import { addMember, makeItem } from '../helpers/factories';
import { apiSuite } from '../helpers/apiSuite';

const suite = apiSuite();
const { as } = suite;

const domainOf = async (itemId: number) =>
  (await Item.findOne({ item_id: itemId }, { item_domain: 1 }).lean())!.item_domain;

describe('item/update item_domain', () => {
  test('sets a new domain that then resolves the item; re-saving the same one is fine', async () => {
    const item = await makeItem(suite.owner);
    await as(suite.owner).ok('item/update', { item_id: item.item_id, item_domain: 'myDocs42' });
    expect(await domainOf(item.item_id)).toBe('myDocs42');
    const found = await suite.server.api.ok<{ item_id: number | string }>('item/getItemId', {
      item_custom_id: 'myDocs42',
    });
    expect(String(found.item_id)).toBe(String(item.item_id));
    await as(suite.owner).ok('item/update', {
      item_id: item.item_id,
      item_domain: 'myDocs42',
      item_name: 'Renamed',
    });
    expect(await domainOf(item.item_id)).toBe('myDocs42');
    await as(suite.owner).ok('item/update', { item_id: item.item_id, item_domain: '' });
    expect(await domainOf(item.item_id)).toBe('');
  });

  test('refuses illegal and taken domains, and editors; the stored domain is unchanged', async () => {
    const taken = await makeItem(suite.owner, { item_domain: 'takenDomain' });
    const item = await makeItem(suite.owner, { item_domain: 'keepMe' });
    await addMember(item.item_id, suite.editor, 1);
    for (const bad of ['has space', 'dash-ed', '中文', '12345', 'x'.repeat(51)])
      expect(
        (await as(suite.owner).fail('item/update', { item_id: item.item_id, item_domain: bad }))
          .error_code,
      ).toBe(10305);
    const dup = await as(suite.owner).fail('item/update', {
      item_id: item.item_id,
      item_domain: 'takenDomain',
    });
    expect(dup.error_code).toBe(10304);
    expect(dup.error_message).toMatch(/already used/);
    expect(
      (await as(suite.editor).fail('item/update', { item_id: item.item_id, item_domain: 'mine' }))
        .error_code,
    ).not.toBe(0);
    expect(await domainOf(item.item_id)).toBe('keepMe');
    expect(await domainOf(taken.item_id)).toBe('takenDomain');
  });
});
