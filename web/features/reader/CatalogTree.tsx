/**
 * The left menu: the item's catalogs (three levels in ShowDoc, any depth here) and pages, with a
 * search that runs on Enter and ends when the box is cleared (spec 001 §2). The catalogs on the
 * way to the open page are expanded; the rest keep whatever the reader opened or closed, also
 * when a live menu change replaces the tree.
 *
 * A big item's menu comes lazily (models/catalogs/menuLevels.ts): catalogs marked `lazy` get
 * their level from catalog/menuChildren when first expanded, and the tree is a virtual list
 * (`height`), so the page holds the rows on screen, not the item's thousands.
 */
import { FileTextOutlined, FolderOutlined } from '@ant-design/icons';
import { Tree } from 'antd';
// Search alone: antd's Input index also brings Password, OTP and Group.
import Search from 'antd/es/input/Search';
import type { DataNode, TreeProps } from 'antd/es/tree';
import { lazy, Suspense, useEffect, useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import { useLogin } from '../../auth/useLogin';
import { CatalogReadCount, PageReadDot } from '../reads/ReadDot';
import { fetchMenuLevel, searchItem, searchRanked } from './api';
import { ReaderSearchResults, type ReaderResults } from './ReaderSearchResults';
import { findPage, hasLazyCatalogs } from './menu';
import type { Menu, MenuCatalog, MenuPage } from './types';
import './reader.css';

const NO_RESULTS = 999;

// Editors only: drag re-ordering and the right-click menu (the catalog manager's actions).
const TreeEditing = lazy(() => import('../catalog/ReaderTreeEditing'));

const EMPTY_LEVELS: ReadonlyMap<string, Menu> = new Map();

const pageKey = (id: string) => `page:${id}`;
const catKey = (id: string) => `cat:${id}`;

function pageNode(page: MenuPage): DataNode {
  return {
    key: pageKey(page.page_id),
    title: (
      <span data-testid="tree-page">
        {page.page_title}
        <PageReadDot pageId={page.page_id} />
      </span>
    ),
    icon: <FileTextOutlined />,
    isLeaf: true,
  };
}

/** Levels of lazy catalogs fetched so far, by catalog id. */
type Levels = ReadonlyMap<string, Menu>;

/** `levels` only for a lazy menu (then empty catalogs are marked leaves, so none is fetched). */
function catalogNode(cat: MenuCatalog, levels?: Levels): DataNode {
  // A lazy catalog not fetched yet has no children: the tree asks `loadData` on expand.
  const level = cat.lazy ? levels?.get(cat.cat_id) : cat;
  const children = level
    ? [...(level.catalogs ?? []).map((c) => catalogNode(c, levels)), ...level.pages.map(pageNode)]
    : undefined;
  return {
    key: catKey(cat.cat_id),
    title: (
      <span data-testid="tree-catalog">
        {cat.cat_name}
        <CatalogReadCount catalog={cat} />
      </span>
    ),
    icon: <FolderOutlined />,
    selectable: false,
    children,
    ...(levels && !cat.lazy && children?.length === 0 ? { isLeaf: true } : {}),
  };
}

function toTreeData(menu: Menu, levels?: Levels): DataNode[] {
  return [...menu.pages.map(pageNode), ...menu.catalogs.map((c) => catalogNode(c, levels))];
}

export function CatalogTree({
  itemId,
  menu,
  currentPageId,
  height,
  onOpenPage,
  onMenuChanged,
}: {
  itemId: string;
  menu: Menu;
  currentPageId: number;
  /** Pixel height of the scrolling tree (virtual list for items with thousands of pages). */
  height: number;
  onOpenPage: (pageId: string) => void;
  /** Given to editors (item_edit): the tree becomes editable; called after each change. */
  onMenuChanged?: () => Promise<unknown> | void;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<ReaderResults | null>(null);
  const [skipCode, setSkipCode] = useState(false);
  // Ranked search (snippets, attachments) needs a login; visitors search the menu's titles.
  const loggedIn = !!useLogin();
  const [searching, setSearching] = useState(false);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const lazy = useMemo(() => hasLazyCatalogs(menu), [menu]);
  const [levels, setLevels] = useState<{ menu: Menu; byCat: Map<string, Menu> }>(() => ({
    menu,
    byCat: new Map(),
  }));
  // A new menu (a live change, a refresh) answers anew: levels fetched for the old one are stale,
  // and the expanded lazy catalogs fetch theirs again.
  const byCat = levels.menu === menu ? levels.byCat : EMPTY_LEVELS;

  // Open the catalogs leading to the page being read.
  useEffect(() => {
    const location = findPage(menu, currentPageId);
    if (!location) return;
    setExpanded((keys) => {
      const missing = location.catalogPath.map(catKey).filter((k) => !keys.includes(k));
      return missing.length ? [...keys, ...missing] : keys;
    });
  }, [menu, currentPageId]);

  const treeData = useMemo(() => toTreeData(menu, lazy ? byCat : undefined), [menu, lazy, byCat]);

  async function loadLevel(node: { key: Key }) {
    const key = String(node.key);
    if (!key.startsWith('cat:')) return;
    const catId = key.slice(4);
    let level: Menu;
    try {
      level = await fetchMenuLevel(itemId, catId);
    } catch {
      // Gone or hidden meanwhile: shown empty; the live menu change that follows redraws it.
      level = { pages: [], catalogs: [] };
    }
    setLevels((current) => {
      const base = current.menu === menu ? current.byCat : new Map<string, Menu>();
      return { menu, byCat: new Map(base).set(catId, level) };
    });
  }

  /** The menu's keyword search (item/info): titles only, for visitors without a login. */
  async function menuSearch(word: string): Promise<ReaderResults | null> {
    try {
      const found = await searchItem(itemId, word);
      return { pages: found.menu.pages, attachments: [] };
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === NO_RESULTS)
        return { pages: [], attachments: [] };
      return null;
    }
  }

  async function search(value: string, skip = skipCode) {
    const word = value.trim();
    if (!word) {
      setResults(null);
      return;
    }
    setSearching(true);
    try {
      // A failed ranked search (a login that ran out, say) still answers from the menu.
      const found = loggedIn ? await searchRanked(itemId, word, skip).catch(() => null) : null;
      setResults(
        found
          ? { pages: found.pages, attachments: found.attachments ?? [] }
          : await menuSearch(word),
      );
    } finally {
      setSearching(false);
    }
  }

  const selected = [pageKey(String(currentPageId))];
  const drawTree = (data: DataNode[], extra?: Partial<TreeProps>) => (
    <Tree
      showIcon
      blockNode
      height={height}
      treeData={data}
      selectedKeys={selected}
      expandedKeys={expanded}
      onExpand={(keys) => setExpanded(keys)}
      {...(lazy ? { loadData: loadLevel, loadedKeys: [...byCat.keys()].map(catKey) } : {})}
      onSelect={(_keys, info) => {
        const key = String(info.node.key);
        if (key.startsWith('page:')) onOpenPage(key.slice(5));
      }}
      onClick={(_event, node) => {
        // A click on a catalog's name opens or closes it, as ShowDoc's menu does.
        const key = String(node.key);
        if (!key.startsWith('cat:')) return;
        setExpanded((keys) =>
          keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key],
        );
      }}
      data-testid="catalog-tree"
      {...extra}
    />
  );
  const treeView =
    onMenuChanged && !lazy ? (
      <Suspense fallback={drawTree(treeData)}>
        <TreeEditing
          itemId={itemId}
          menu={menu}
          draggable={keyword.trim() === ''}
          toTreeData={toTreeData}
          render={drawTree}
          onChanged={onMenuChanged}
        />
      </Suspense>
    ) : (
      drawTree(treeData)
    );
  return (
    <div style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <Search
        allowClear
        value={keyword}
        placeholder={t('reader.searchPlaceholder')}
        aria-label={t('reader.searchPlaceholder')}
        loading={searching}
        onChange={(e) => {
          setKeyword(e.target.value);
          if (e.target.value === '') setResults(null); // cleared: back to the tree
        }}
        onSearch={(value) => void search(value)}
        style={{ marginBottom: 8 }}
      />
      {loggedIn && (
        <label className="q-search-options">
          <input
            type="checkbox"
            checked={skipCode}
            data-testid="search-skip-code"
            onChange={(e) => {
              setSkipCode(e.target.checked);
              if (results) void search(keyword, e.target.checked);
            }}
          />
          {t('search.skipCode')}
        </label>
      )}
      {results ? (
        <ReaderSearchResults
          results={results}
          currentPageId={currentPageId}
          height={height}
          onOpenPage={onOpenPage}
        />
      ) : (
        treeView
      )}
    </div>
  );
}
