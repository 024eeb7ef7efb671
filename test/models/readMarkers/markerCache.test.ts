/**
 * The per-instance copy of read documents: item/info reads markers from it without a query, and
 * a `reads.changed` event — what another process's write arrives as through the Redis relay —
 * drops it, so the next read sees the new markers.
 */
import { expect, test } from '@jest/globals';
import { events, nowSeconds } from '../../../models/platform';
import { readDoc } from '../../../models/readMarkers/markerCache';
import { PageRead } from '../../../models/readMarkers/schemas';
import { apiSuite } from '../../helpers/apiSuite';

apiSuite();

test('a write elsewhere is seen once its reads.changed event arrives', async () => {
  const uid = 900_001;
  const itemId = 900_002;
  expect(await readDoc(uid, itemId)).toBeNull();
  // Another process writes the markers: this instance still answers its copy…
  await PageRead.create({
    uid,
    item_id: itemId,
    since: 1,
    pages: { 7: 5 },
    updated_at: nowSeconds(),
  });
  expect(await readDoc(uid, itemId)).toBeNull();
  // …until the relayed event drops it.
  events.publish('reads.changed', { uid, itemId });
  await new Promise((resolve) => setImmediate(resolve)); // listeners run after the publisher
  expect((await readDoc(uid, itemId))?.pages).toEqual({ 7: 5 });
});
