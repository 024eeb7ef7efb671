/**
 * Item member authorities (spec 000 §4): 0 read-only, 1 edit, 2 item admin. A catalog
 * restriction applies only to 0 and 1 (an item admin sees everything).
 */
export const READ_ONLY = 0;
export const EDIT = 1;
export const ITEM_ADMIN = 2;

export const AUTHORITIES = [
  { value: READ_ONLY, label: 'members.authority.readOnly' },
  { value: EDIT, label: 'members.authority.edit' },
  { value: ITEM_ADMIN, label: 'members.authority.admin' },
] as const;

export function authorityLabel(value: string | number): string {
  return AUTHORITIES.find((a) => a.value === Number(value))?.label ?? AUTHORITIES[0].label;
}

export function catalogApplies(authority: string | number): boolean {
  return Number(authority) !== ITEM_ADMIN;
}
