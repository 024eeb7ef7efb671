/** Items (projects): create/update/delete, the item list and groups, copies, API keys, the change log. */
export { adminDeleteItem, adminRecoverItem, adminTransferItem, listAllItems } from './adminItems';
export { adminHardDeleteItem } from './itemPurge';
export { listChangeLog, logChange, planLogRow } from './changeLog';
export { itemCoEditOn } from './coEdit';
export { copyItem } from './itemCopy';
export { deleteGroup, listGroups, saveGroup, sortGroups } from './itemGroups';
export { getItemKey, itemIdForApiKey, resetItemKey } from './itemKeys';
export {
  exitItem,
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
  itemDetail,
  itemRow,
  type ItemRow,
  MAX_ITEM_NAME,
  transferItem,
  updateItem,
} from './items';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { CHANGE_ACTIONS, CHANGE_OBJECTS } from './schemas';
export { Item, ItemChangeLog, ItemGroup, ItemSort, ItemStar, ItemToken, ItemTop } from './schemas';
export type { ItemChangeLogDoc, ItemDoc } from './schemas';
