/**
 * What the reader reads from the API (reference pages §2, §3.1–§3.3, §3.6), as the declared REST
 * contract (api/contracts/) says: ShowDoc's shapes, row columns as strings and computed values as
 * numbers/booleans. Type-only: the schemas stay out of the bundle.
 */
import type { z } from 'zod';
import type * as contract from '../../../api/contracts';

export type MenuPage = z.output<typeof contract.MenuPage>;
export type MenuCatalog = z.output<typeof contract.MenuCatalog>;
export type Menu = z.output<typeof contract.Menu>;
export type ItemInfo = z.output<typeof contract.ItemInfo>;
export type PageInfo = z.output<typeof contract.PageInfo>;
/** `page/infoByKey`: a shared page, without its place in the item. */
export type SharedPage = z.output<typeof contract.SharedPage>;
export type HistoryEntry = z.output<typeof contract.HistoryEntry>;
export type PageAttachment = z.output<typeof contract.PageAttachment>;
export type ChangeLogEntry = z.output<typeof contract.ChangeLogEntry>;
