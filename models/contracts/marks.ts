/**
 * Whether an item has any page with a contract change mark: `item/info` says so, and the reader
 * asks for a page's mark (`apiContract/mark`) only in such items — most items follow no API
 * contract, and their readers should pay no extra request per page.
 */
import { perContext, ReadCache } from '../platform';
import { ApiContractMark } from './schemas';

const cache = perContext((context) => {
  const items = new ReadCache<number, boolean>({ maxEntries: 10_000 });
  // A sync writes marks and then publishes contract.changed (other processes get it relayed).
  context.bus.subscribe('contract.changed', ({ itemId }) => items.drop(itemId), {
    synchronous: true,
  });
  return items;
});

export async function itemHasContractMarks(itemId: number): Promise<boolean> {
  if (!(itemId > 0)) return false;
  return cache().get(itemId, async () => !!(await ApiContractMark.exists({ item_id: itemId })));
}
