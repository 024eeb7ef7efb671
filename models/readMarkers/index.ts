/** Reads: what each logged-in user last read of each page, and what changed since. */
export { changedBlocks, splitBlocks, type BlockChanges, type ChangedBlock } from './blocks';
export { pageChanges, type PageChanges } from './changes';
export {
  changedPageCount,
  changedSinceRead,
  changedMenuPages,
  markAllRead,
  markRead,
  MAX_MARK_BATCH,
  type Marker,
  type ReadReport,
} from './markers';
export { changedCountsByItem } from './itemCounts';
export { purgeItemReadMarkers } from './itemPurge';
