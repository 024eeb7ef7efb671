/** Search: keyword search across the items a user may read, and the public square. */
export { checkKeyword, findMatchingPages, searchItemPages, searchPages } from './search';
export {
  MAX_SQUARE_COUNT,
  publicSquareItems,
  publicSquareState,
  type PublicSquareItem,
} from './publicSquare';
