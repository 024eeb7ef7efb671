/** Items (projects): create/update/delete, the item list and groups, copies, API keys, the change log. */
import { liveItemSource } from '../access';
import { liveItemsForAccess } from './accessItems';

// The access policy reads live items through its port (models/access/sources.ts).
liveItemSource.fill(liveItemsForAccess);

export {
  adminDeleteItem,
  adminItemMatch,
  adminItemRow,
  type AdminItemFilter,
  type AdminItemRow,
  adminRecoverItem,
  adminTransferItem,
} from './adminItems';
export { purgeItemRecord, requirePurgeableItem } from './itemPurge';
export { listChangeLog, logChange, planLogRow } from './changeLog';
export { itemCoEditOn } from './coEdit';
export { addItemToGroups, deleteGroup, listGroups, saveGroup, sortGroups } from './itemGroups';
export { getItemKey, itemIdForApiKey, resetItemKey } from './itemKeys';
export {
  myItemList,
  type MyListEntry,
  ownedItems,
  pinItem,
  saveItemSort,
  starItem,
  unstarItem,
} from './itemList';
export {
  AI_CONFIG_OFF,
  type AiConfig,
  type AiConfigChange,
  aiConfigOf,
  MAX_WELCOME_LENGTH,
  readItemAiConfig,
  saveItemAiConfig,
} from './aiConfig';
export {
  archiveItem,
  createItem,
  deleteItem,
  deleteItemByToken,
  findUserByNameOrEmail,
  insertItem,
  type NewItemInput,
  itemDetail,
  itemRow,
  type ItemRow,
  MAX_ITEM_NAME,
  ownsLiveItems,
  transferItem,
  updateItem,
} from './items';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { type FirstPage, type ItemPages, itemPages } from './ports';
export { CHANGE_ACTIONS, CHANGE_OBJECTS } from './schemas';
export { Item, ItemChangeLog, ItemGroup, ItemSort, ItemStar, ItemToken, ItemTop } from './schemas';
export type { ItemChangeLogDoc, ItemDoc } from './schemas';
