/** Reader: opening an item (item/info payload, visit password, custom address). */
export { checkVisitPassword, itemInfo, resolveItemId } from './itemInfo';
export { visibleChangeLog } from './visibleChangeLog';
