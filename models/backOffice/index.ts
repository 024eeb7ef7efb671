/**
 * The back office's operations that span domains: the item list with member counts, the
 * permanent delete of an item with everything it owns, and deleting a user with their
 * memberships. Composed from each domain's face; no domain imports this one.
 */
export { adminHardDeleteItem, listAllItems } from './items';
export { deleteUserAccount } from './users';
