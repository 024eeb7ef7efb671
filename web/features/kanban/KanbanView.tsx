/**
 * The board of a kanban item (type 6): its lists side by side, cards dragged within and between
 * lists by editors (read-only members see no handles), filters, archived lists, the activity log
 * and a card's detail. Live: the screen watches the board page's room (so it is in the board's
 * presence list) and applies every `kanban:changed` push; each drag is one move on the server,
 * and the push of the stored board settles every screen on the same order.
 */
import { HistoryOutlined, InboxOutlined, PlusOutlined } from '@ant-design/icons';
import {
  closestCorners,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { App, Avatar, Button, Input, Popover, Select, Space, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PresenceUser, WatchAck } from '../../../realtime/socketEvents';
import { ApiRequestError } from '../../api/request';
import { getItemPassword } from '../../auth/storage';
import { LazyResult } from '../../components/LazyResult';
import { Placeholder } from '../../components/Placeholder';
import { useLive } from '../../live/context';
import { useLiveEvent } from '../../live/useLiveEvent';
import type { ItemInfo } from '../reader/types';
import * as api from './api';
import {
  applyChange,
  type BoardState,
  cardMatches,
  type CardFilter,
  initialState,
  moveLocally,
  placeOf,
} from './boardState';
import { CardBody } from './KanbanCardView';
import { KanbanColumn } from './KanbanColumn';

const TaskDrawer = lazy(() => import('./TaskDrawer'));
const ActivityDrawer = lazy(() => import('./ActivityDrawer'));

const NO_FILTER: CardFilter = { assignee: '', tag: '', text: '' };

function idOf(key: string | number | undefined): number {
  return typeof key === 'string' && key.startsWith('card:') ? Number(key.slice(5)) : 0;
}

export default function KanbanView({
  item,
  openTask = 0,
  selfUid,
  actions,
}: {
  item: ItemInfo;
  /** A task page named in the address (a search hit, a shared link): its card opens. */
  openTask?: number;
  selfUid: number;
  actions?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { socket } = useLive();
  const itemId = Number(item.item_id);
  const [state, setState] = useState<BoardState | null>(null);
  const [boardPageId, setBoardPageId] = useState(0);
  const [canEdit, setCanEdit] = useState(false);
  const [error, setError] = useState('');
  const [others, setOthers] = useState<PresenceUser[]>([]);
  const [filter, setFilter] = useState<CardFilter>(NO_FILTER);
  const [openCard, setOpenCard] = useState(openTask);
  const [activityOpen, setActivityOpen] = useState(false);
  const [dragging, setDragging] = useState(0);
  const [newList, setNewList] = useState('');

  const load = useCallback(() => {
    api.loadBoard(itemId).then(
      (answer) => {
        setBoardPageId(answer.page_id);
        setCanEdit(answer.can_edit);
        // A push that came in while loading may be newer than this answer.
        setState((s) =>
          s && s.board.meta.version > answer.board.meta.version
            ? s
            : initialState(answer.board, answer.cards),
        );
      },
      (e: unknown) => setError(e instanceof ApiRequestError ? e.message : t('kanban.failed')),
    );
  }, [itemId, t]);

  useEffect(load, [load]);

  // The board page's room, as a visible viewer; again (and a fresh board) after a reconnect.
  useEffect(() => {
    if (!socket || !(boardPageId > 0)) return;
    const watch = () =>
      socket.emit(
        'watch',
        { page_id: boardPageId, mode: 'viewing', item_password: getItemPassword() || undefined },
        (reply: WatchAck) => {
          if ('ok' in reply) setOthers((reply.presence ?? []).filter((u) => u.uid !== selfUid));
        },
      );
    const rejoin = () => {
      watch();
      load();
    };
    if (socket.connected) watch();
    socket.on('connect', rejoin);
    return () => {
      socket.off('connect', rejoin);
      if (socket.connected) socket.emit('unwatch', { page_id: boardPageId }, () => {});
    };
  }, [socket, boardPageId, selfUid, load]);

  useLiveEvent('kanban:changed', (change) => {
    if (change.item_id === itemId) setState((s) => (s ? applyChange(s, change) : s));
  });
  useLiveEvent('presence', (payload) => {
    if (payload.page_id === boardPageId)
      setOthers(payload.users.filter((u) => u.uid !== selfUid || u.agent));
  });

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const fail = (e: unknown) => {
    void message.error(e instanceof ApiRequestError ? e.message : t('kanban.failed'));
    load();
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(0);
    if (!state || !over) return;
    const pageId = idOf(active.id);
    const from = placeOf(state.board, pageId);
    if (!pageId || !from) return;
    const overKey = String(over.id);
    let listId: string;
    let index: number;
    if (overKey.startsWith('list:')) {
      listId = overKey.slice(5);
      const order = state.board.tasks_order[listId] ?? [];
      index = order.filter((id) => id !== String(pageId)).length;
    } else {
      const target = placeOf(state.board, idOf(overKey));
      if (!target) return;
      listId = target.listId;
      index = target.index;
    }
    if (listId === from.listId && index === from.index) return;
    setState((s) => (s ? moveLocally(s, pageId, listId, index) : s));
    api.moveTask(pageId, listId, index).catch(fail);
  };

  const tags = useMemo(() => {
    const all = new Set<string>();
    for (const card of Object.values(state?.cards ?? {}))
      for (const tag of card.tags) if (tag.text) all.add(tag.text);
    return [...all].sort();
  }, [state]);
  const assignees = useMemo(() => {
    const all = new Map<string, string>();
    for (const card of Object.values(state?.cards ?? {}))
      if (card.assignee_uid) all.set(card.assignee_uid, card.assignee_username);
    return [...all.entries()];
  }, [state]);

  if (error)
    return <LazyResult status="warning" title={t('kanban.unavailable')} subTitle={error} />;
  if (!state) return <Placeholder padded />;
  const { board, cards } = state;
  const filtering = filter.assignee || filter.tag || filter.text.trim();
  const dragged = dragging ? cards[dragging] : undefined;

  return (
    <div
      data-testid="kanban-board"
      style={{ display: 'flex', flexDirection: 'column', height: '100vh', padding: 16, gap: 12 }}
    >
      <header style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {item.item_name}
        </Typography.Title>
        {others.length > 0 && (
          <span data-testid="kanban-presence" aria-label={t('kanban.watching')}>
            <Avatar.Group max={{ count: 5 }} size="small">
              {others.map((u) => (
                <Tooltip key={`${u.uid}-${u.agent?.token_id ?? 0}`} title={u.username}>
                  <Avatar size="small" data-testid="kanban-presence-user">
                    {u.username.slice(0, 1).toUpperCase()}
                  </Avatar>
                </Tooltip>
              ))}
            </Avatar.Group>
          </span>
        )}
        <Space wrap style={{ marginLeft: 'auto' }}>
          <Input.Search
            allowClear
            size="small"
            style={{ width: 180 }}
            placeholder={t('kanban.filterText')}
            aria-label={t('kanban.filterText')}
            value={filter.text}
            onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
            data-testid="kanban-filter-text"
          />
          <Select
            allowClear
            size="small"
            style={{ width: 150 }}
            placeholder={t('kanban.filterAssignee')}
            aria-label={t('kanban.filterAssignee')}
            value={filter.assignee || undefined}
            onChange={(v?: string) => setFilter((f) => ({ ...f, assignee: v ?? '' }))}
            options={[
              { value: 'none', label: t('kanban.unassigned') },
              ...assignees.map(([uid, name]) => ({ value: uid, label: name })),
            ]}
          />
          <Select
            allowClear
            size="small"
            style={{ width: 130 }}
            placeholder={t('kanban.filterTag')}
            aria-label={t('kanban.filterTag')}
            value={filter.tag || undefined}
            onChange={(v?: string) => setFilter((f) => ({ ...f, tag: v ?? '' }))}
            options={tags.map((tag) => ({ value: tag, label: tag }))}
          />
          <Popover
            trigger="click"
            title={t('kanban.archivedLists')}
            content={
              board.archived_lists.length ? (
                <Space orientation="vertical">
                  {board.archived_lists.map((list) => (
                    <Space key={list.id}>
                      <span>{list.title}</span>
                      <Typography.Text type="secondary">
                        {(board.archived_tasks_order[list.id] ?? []).length}
                      </Typography.Text>
                      {canEdit && (
                        <Button
                          size="small"
                          onClick={() => api.restoreList(itemId, list.id).catch(fail)}
                          data-testid="kanban-restore-list"
                        >
                          {t('kanban.restoreList')}
                        </Button>
                      )}
                    </Space>
                  ))}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('kanban.noArchivedLists')}</Typography.Text>
              )
            }
          >
            <Button size="small" icon={<InboxOutlined />} data-testid="kanban-archived">
              {t('kanban.archivedLists')}
            </Button>
          </Popover>
          <Button
            size="small"
            icon={<HistoryOutlined />}
            onClick={() => setActivityOpen(true)}
            data-testid="kanban-activity"
          >
            {t('kanban.activity')}
          </Button>
          {actions}
        </Space>
      </header>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCorners}
        onDragStart={({ active }: DragStartEvent) => setDragging(idOf(active.id))}
        onDragCancel={() => setDragging(0)}
        onDragEnd={onDragEnd}
      >
        <div
          style={{ display: 'flex', gap: 12, overflowX: 'auto', flex: 1, alignItems: 'flex-start' }}
        >
          {board.lists.map((list) => {
            const ids = board.tasks_order[list.id] ?? [];
            const inList = ids.map((id) => cards[Number(id)]).filter((c) => c !== undefined);
            const shown = filtering ? inList.filter((c) => cardMatches(c, filter)) : inList;
            return (
              <KanbanColumn
                key={list.id}
                itemId={itemId}
                list={list}
                cards={shown}
                total={inList.length}
                canEdit={canEdit}
                onOpenCard={setOpenCard}
              />
            );
          })}
          {canEdit && (
            <Space.Compact style={{ flex: '0 0 240px' }}>
              <Input
                size="small"
                value={newList}
                maxLength={100}
                placeholder={t('kanban.listTitle')}
                aria-label={t('kanban.listTitle')}
                onChange={(e) => setNewList(e.target.value)}
                onPressEnter={() => {
                  if (!newList.trim()) return;
                  api.addList(itemId, newList.trim()).catch(fail);
                  setNewList('');
                }}
                data-testid="kanban-new-list"
              />
              <Button
                size="small"
                icon={<PlusOutlined />}
                disabled={!newList.trim()}
                onClick={() => {
                  api.addList(itemId, newList.trim()).catch(fail);
                  setNewList('');
                }}
              >
                {t('kanban.addList')}
              </Button>
            </Space.Compact>
          )}
        </div>
        <DragOverlay>
          {dragged ? (
            <div
              style={{
                background: '#fff',
                borderRadius: 8,
                padding: '8px 10px',
                width: 260,
                boxShadow: '0 6px 16px rgba(0,0,0,0.15)',
              }}
            >
              <CardBody card={dragged} />
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
      <Suspense fallback={null}>
        {/* An address naming a page that is no card (the board page itself) opens nothing. */}
        {openCard > 0 && (cards[openCard] !== undefined || openCard !== openTask) && (
          <TaskDrawer
            itemId={itemId}
            card={cards[openCard]}
            lists={board.lists}
            canEdit={canEdit}
            loggedIn={selfUid > 0}
            onClose={() => setOpenCard(0)}
          />
        )}
        {activityOpen && (
          <ActivityDrawer
            itemId={itemId}
            loggedIn={selfUid > 0}
            onClose={() => setActivityOpen(false)}
          />
        )}
      </Suspense>
    </div>
  );
}
