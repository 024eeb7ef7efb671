/** Search: keyword search across the items a user may read. */
export { checkKeyword, findMatchingPages, searchItemPages, searchPages } from './search';
