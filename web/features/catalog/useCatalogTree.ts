/**
 * Loads an item's tree (item/info) for the catalog manager and reloads it after every change, so
 * the screen always ends up showing the server's state. While a drag is being saved the screen
 * shows the dropped tree at once (`showTree`); the reload that follows replaces it either way.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../api/request';
import { fetchItemTree } from './api';
import { treeFromMenu, type ManagedNode } from './tree';

export interface LoadedItem {
  itemName: string;
  canEdit: boolean;
  tree: ManagedNode[];
}

export type TreeState =
  | { status: 'loading' }
  | { status: 'ready'; item: LoadedItem }
  | { status: 'error'; message: string };

export function useCatalogTree(itemId: number) {
  const [state, setState] = useState<TreeState>({ status: 'loading' });
  // Answers can overtake each other (a drop, then a quick second one): only the latest counts.
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const info = await fetchItemTree(itemId);
      if (mine !== generation.current) return;
      setState({
        status: 'ready',
        item: {
          itemName: info.item_name,
          canEdit: !!info.item_edit,
          tree: treeFromMenu(info.menu ?? { pages: [], catalogs: [] }),
        },
      });
    } catch (error) {
      if (mine !== generation.current) return;
      const message = error instanceof ApiRequestError ? error.message : String(error);
      setState({ status: 'error', message });
    }
  }, [itemId]);

  useEffect(() => {
    setState({ status: 'loading' });
    void reload();
  }, [reload]);

  /** Shows `tree` until the next reload (a drop being saved). */
  const showTree = useCallback((tree: ManagedNode[]) => {
    setState((current) =>
      current.status === 'ready' ? { status: 'ready', item: { ...current.item, tree } } : current,
    );
  }, []);

  return { state, reload, showTree };
}
