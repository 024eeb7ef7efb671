/** What the editor screen opens with: the item, the page and its saved state (EditorRoute loads it). */
import type { ItemInfo } from '../reader/types';
import type { PageMetaMode } from './PageMetaModal';

export interface EditorSession {
  item: ItemInfo;
  itemId: number;
  /** 0: a new page. */
  pageId: number;
  title: string;
  customId: string;
  catId: number;
  /** The saved content ('' for a new page). */
  savedContent: string;
  /** The saved version's page/info `addtime` ('' for a new page): offline edits' base. */
  savedVersion: string;
  /** What a new page starts with (a copied page's content). */
  startContent: string;
  /** The popup to show first (new and copied pages). */
  metaMode: PageMetaMode | null;
  /** May only suggest changes (a read-only member of an item in suggest mode): no lock, no save. */
  suggestOnly: boolean;
}
