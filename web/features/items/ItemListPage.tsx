/**
 * `/item/index`: the item list home (spec 000 §2). Left: all, starred and the user's groups (the
 * choice is remembered); right: search, the items of the chosen view (drag to sort), the create
 * button. Item actions open their dialogs here. The list refreshes itself when the server says
 * the user's access changed (someone added them to an item or a team).
 */
import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { App, Button, Col, Empty, Grid, Input, Row, Spin, Typography } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { listGroups } from '../../api/groups';
import { ALL_ITEMS, myItems, sortItems, STARRED, starItem, unstarItem } from '../../api/items';
import type { ItemGroup, ItemListEntry } from '../../api/types';
import { DEFAULT_GROUP_KEY } from '../../auth/storage';
import { SortableList } from '../../components/SortableList';
import { useLiveEvent } from '../../live/useLiveEvent';
import { GroupNav } from '../groups/GroupNav';
import type { ItemAction } from './ItemActionsMenu';
import { useItemChangeCounts } from '../reads/ItemChanges';
import { ItemRow } from './ItemRow';
import { ItemSearchResults } from './ItemSearchResults';
import { itemPath } from './itemTypes';
import { shouldSearch } from './searchRule';
import type { ConfirmedAction } from './ConfirmedActionModal';

const CreateItemModal = lazy(() => import('./CreateItemModal'));
const UpdateItemModal = lazy(() => import('./UpdateItemModal'));
const ShareModal = lazy(() => import('./ShareModal'));
const OpenApiModal = lazy(() => import('./OpenApiModal'));
const RecycleModal = lazy(() => import('./RecycleModal'));
const ConfirmedActionModal = lazy(() => import('./ConfirmedActionModal'));
const CopyItemModal = lazy(() => import('./CopyItemModal'));
const MemberManagerModal = lazy(() => import('../members/MemberManagerModal'));
const GroupManagerModal = lazy(() => import('../groups/GroupManagerModal'));

type Dialog =
  | { kind: 'create' }
  | { kind: 'groups' }
  | { kind: Exclude<ItemAction, 'open' | 'star' | 'settings'>; item: ItemListEntry };

function rememberedGroup(): number {
  try {
    const raw = localStorage.getItem(DEFAULT_GROUP_KEY);
    return raw === null ? ALL_ITEMS : Number(raw) || ALL_ITEMS;
  } catch {
    return ALL_ITEMS;
  }
}

/**
 * `creating`: the `/item/add` route (spec 002 §2) — the list with the create dialog open; closing
 * the dialog goes back to `/item/index`.
 */
export default function ItemListPage({ creating = false }: { creating?: boolean }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const screens = Grid.useBreakpoint();
  const compact = !screens.md;
  const [groups, setGroups] = useState<ItemGroup[]>([]);
  const [groupId, setGroupId] = useState<number | null>(null);
  const [items, setItems] = useState<ItemListEntry[] | null>(null);
  const [allItems, setAllItems] = useState<ItemListEntry[]>([]);
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<Dialog | null>(creating ? { kind: 'create' } : null);
  useEffect(() => {
    if (creating) setDialog({ kind: 'create' });
  }, [creating]);
  const close = useCallback(() => {
    setDialog(null);
    if (creating) void navigate('/item/index', { replace: true });
  }, [creating, navigate]);

  const loadGroups = useCallback(async () => {
    let list: ItemGroup[] = [];
    try {
      list = await listGroups();
    } catch {
      // alerted; the list still works without groups
    }
    setGroups(list);
    return list;
  }, []);

  // First visit: groups, then the remembered view if that group still exists.
  useEffect(() => {
    void loadGroups().then((list) => {
      const wanted = rememberedGroup();
      const exists = wanted <= 0 || list.some((g) => Number(g.id) === wanted);
      setGroupId(exists && wanted >= STARRED ? wanted : ALL_ITEMS);
    });
  }, [loadGroups]);

  const loadItems = useCallback(async () => {
    if (groupId === null) return;
    try {
      const list = await myItems(groupId);
      setItems(list);
      if (groupId === ALL_ITEMS) setAllItems(list);
    } catch {
      setItems([]);
    }
  }, [groupId]);

  useEffect(() => {
    setItems(null);
    void loadItems();
  }, [loadItems]);

  const changeCounts = useItemChangeCounts(items);
  const searching = shouldSearch(keyword);
  useEffect(() => {
    // Search and copy need every item, not only the current view's.
    if ((searching || dialog?.kind === 'create') && groupId !== ALL_ITEMS)
      myItems(ALL_ITEMS).then(setAllItems, () => {});
  }, [searching, dialog, groupId]);

  useLiveEvent('access:changed', () => void loadItems());

  const refreshAll = () => {
    void loadItems();
    void loadGroups();
  };

  function selectGroup(id: number) {
    setGroupId(id);
    setKeyword('');
    try {
      localStorage.setItem(DEFAULT_GROUP_KEY, String(id));
    } catch {
      // not remembered
    }
  }

  async function toggleStar(item: ItemListEntry) {
    const starred = Number(item.is_star) > 0;
    try {
      if (starred) await unstarItem(Number(item.item_id));
      else await starItem(Number(item.item_id));
      message.success(starred ? t('items.unstarred') : t('items.starredDone'));
      if (groupId === STARRED && starred) void loadItems();
      else
        setItems((list) =>
          (list ?? []).map((i) =>
            i.item_id === item.item_id ? { ...i, is_star: starred ? 0 : 1 } : i,
          ),
        );
    } catch {
      // alerted
    }
  }

  function onAction(item: ItemListEntry, action: ItemAction) {
    if (action === 'open') void navigate(itemPath(item));
    else if (action === 'settings') void navigate(`/item/setting/${item.item_id}`);
    else if (action === 'star') void toggleStar(item);
    else setDialog({ kind: action, item });
  }

  async function reorder(next: ItemListEntry[]) {
    if (groupId === null) return;
    setItems(next);
    const order: Record<string, number> = {};
    next.forEach((item, index) => (order[String(item.item_id)] = index + 1));
    try {
      await sortItems(order, groupId);
    } catch (error) {
      // Spec 000 §4: a failed sort is alerted, then the page reloads (shows the kept order).
      modal.warning({
        content: error instanceof Error ? error.message : String(error),
        okText: t('common.ok'),
        onOk: () => window.location.reload(),
        afterClose: () => window.location.reload(),
      });
    }
  }

  const viewName =
    groupId === STARRED
      ? t('items.starred')
      : groupId && groupId > 0
        ? (groups.find((g) => Number(g.id) === groupId)?.group_name ?? '')
        : t('items.all');

  const nav = (
    <GroupNav
      groups={groups}
      selected={groupId ?? ALL_ITEMS}
      onSelect={selectGroup}
      onManage={() => setDialog({ kind: 'groups' })}
      compact={compact}
    />
  );

  return (
    <Row gutter={[24, 16]} wrap={compact}>
      {!compact && (
        <Col flex="220px" style={{ borderRight: '1px solid #eceef2', minHeight: '70vh' }}>
          {nav}
        </Col>
      )}
      <Col flex="auto" style={{ minWidth: 0 }}>
        {compact && nav}
        <div style={{ display: 'flex', gap: 12, marginBottom: 16 }}>
          <Input
            size="large"
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('items.search.placeholder')}
            aria-label={t('items.search.placeholder')}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            style={{ borderRadius: 10 }}
          />
          <Button
            type="primary"
            size="large"
            icon={<PlusOutlined />}
            aria-label={t('items.create.button')}
            onClick={() => setDialog({ kind: 'create' })}
          >
            {compact ? null : t('items.create.button')}
          </Button>
        </div>
        <Typography.Title level={5} style={{ color: '#667085', fontWeight: 500 }}>
          {searching ? t('items.search.heading', { keyword: keyword.trim() }) : viewName}
        </Typography.Title>
        {searching ? (
          <ItemSearchResults keyword={keyword} items={allItems.length ? allItems : (items ?? [])} />
        ) : items === null ? (
          <Spin />
        ) : items.length === 0 ? (
          <Empty description={t('items.empty')} style={{ marginTop: 64 }}>
            <Button type="primary" onClick={() => setDialog({ kind: 'create' })}>
              {t('items.create.button')}
            </Button>
          </Empty>
        ) : (
          <div role="list" aria-label={viewName}>
            <SortableList
              items={items}
              getId={(i) => String(i.item_id)}
              getLabel={(i) => i.item_name}
              onReorder={(next) => void reorder(next)}
            >
              {(item, drag) => (
                <ItemRow
                  item={item}
                  drag={drag}
                  onAction={(action) => onAction(item, action)}
                  changedPages={changeCounts.get(Number(item.item_id))}
                />
              )}
            </SortableList>
          </div>
        )}
      </Col>
      <Suspense fallback={null}>
        {dialog?.kind === 'create' && (
          <CreateItemModal
            groups={groups}
            items={allItems.length ? allItems : (items ?? [])}
            currentGroup={groupId ?? ALL_ITEMS}
            onClose={close}
            onCreated={refreshAll}
          />
        )}
        {dialog?.kind === 'groups' && <GroupManagerModal onClose={close} onChanged={refreshAll} />}
        {dialog && 'item' in dialog && (
          <ItemDialog dialog={dialog} groups={groups} onClose={close} onChanged={refreshAll} />
        )}
      </Suspense>
    </Row>
  );
}

/** The dialog of one item action. */
function ItemDialog({
  dialog,
  groups,
  onClose,
  onChanged,
}: {
  dialog: Extract<Dialog, { item: ItemListEntry }>;
  groups: ItemGroup[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const { item } = dialog;
  const itemId = Number(item.item_id);
  switch (dialog.kind) {
    case 'share':
      return <ShareModal item={item} onClose={onClose} />;
    case 'update':
      return (
        <UpdateItemModal itemId={itemId} groups={groups} onClose={onClose} onSaved={onChanged} />
      );
    case 'members':
      return <MemberManagerModal item={item} onClose={onClose} />;
    case 'openApi':
      return <OpenApiModal itemId={itemId} onClose={onClose} />;
    case 'recycle':
      return <RecycleModal itemId={itemId} onClose={onClose} />;
    case 'copy':
      return <CopyItemModal item={item} onClose={onClose} onCopied={onChanged} />;
    default:
      return (
        <ConfirmedActionModal
          action={dialog.kind as ConfirmedAction}
          item={item}
          onClose={onClose}
          onDone={onChanged}
        />
      );
  }
}
