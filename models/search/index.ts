/** Search: keyword search across the items a user may read. */
export { checkKeyword, findMatchingPages, searchPages } from './search';
