/**
 * What the reader knows of the viewer's reads: the pages changed since they last read them (from
 * item/info's menu flags, minus what was read on this visit), shared with the catalog tree's dots
 * and the "mark all as read" link without threading props through the reader's views.
 */
import { createContext, useContext } from 'react';

export interface ReadsValue {
  /** Ids of the pages changed since the viewer last read them. */
  changed: ReadonlySet<string>;
  /** Marks every page of the item read (empty until the item is loaded, or for anonymous viewers). */
  markAll?: () => Promise<void>;
}

export const ReadsContext = createContext<ReadsValue>({ changed: new Set() });

export function useReads(): ReadsValue {
  return useContext(ReadsContext);
}
