/** One list of the board: its title and menu, its cards (a drop target), and "add a task". */
import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { App, Button, Dropdown, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import * as api from './api';
import type { KanbanCard, KanbanListShape } from './api';
import { cardKey, SortableCard } from './KanbanCardView';

export const listKey = (listId: string) => `list:${listId}`;

export function KanbanColumn({
  itemId,
  list,
  cards,
  total,
  canEdit,
  onOpenCard,
}: {
  itemId: number;
  list: KanbanListShape;
  /** The cards shown (after the filters). */
  cards: KanbanCard[];
  /** Cards in the list before the filters. */
  total: number;
  canEdit: boolean;
  onOpenCard: (pageId: number) => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { setNodeRef, isOver } = useDroppable({ id: listKey(list.id), data: { type: 'list' } });
  const [adding, setAdding] = useState(false);
  const [title, setTitle] = useState('');

  const fail = (error: unknown) =>
    void message.error(error instanceof ApiRequestError ? error.message : t('kanban.failed'));

  const add = () => {
    const text = title.trim();
    if (!text) return;
    setTitle('');
    api.addTask(itemId, list.id, text).catch(fail);
  };

  const menu = {
    items: [
      { key: 'archive', label: t('kanban.archiveList') },
      { key: 'delete', label: t('kanban.deleteList'), danger: true },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'archive') api.archiveList(itemId, list.id).catch(fail);
      else
        modal.confirm({
          title: t('kanban.deleteListConfirm', { title: list.title }),
          content: t('kanban.deleteListHint'),
          okButtonProps: { danger: true },
          okText: t('kanban.deleteList'),
          cancelText: t('common.cancel'),
          onOk: () => api.deleteList(itemId, list.id).catch(fail),
        });
    },
  };

  return (
    <section
      data-testid="kanban-list"
      data-list-id={list.id}
      aria-label={list.title}
      style={{
        width: 280,
        flex: '0 0 280px',
        background: isOver ? 'rgba(22,119,255,0.08)' : 'rgba(0,0,0,0.03)',
        borderRadius: 10,
        padding: 10,
        display: 'flex',
        flexDirection: 'column',
        maxHeight: '100%',
      }}
    >
      <header style={{ display: 'flex', alignItems: 'center', gap: 6, marginBottom: 8 }}>
        <Typography.Text
          strong
          style={{ flex: 1 }}
          data-testid="kanban-list-title"
          editable={
            canEdit
              ? {
                  onChange: (next) => {
                    if (next.trim() && next.trim() !== list.title)
                      api.renameList(itemId, list.id, next.trim()).catch(fail);
                  },
                  triggerType: ['text'],
                }
              : false
          }
        >
          {list.title}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {cards.length === total ? total : `${cards.length}/${total}`}
        </Typography.Text>
        {canEdit && (
          <Dropdown menu={menu} trigger={['click']}>
            <Button
              size="small"
              type="text"
              icon={<MoreOutlined />}
              aria-label={t('kanban.listMenu')}
              data-testid="kanban-list-menu"
            />
          </Dropdown>
        )}
      </header>
      <div ref={setNodeRef} style={{ flex: 1, minHeight: 40, overflowY: 'auto' }}>
        <SortableContext
          items={cards.map((c) => cardKey(c.page_id))}
          strategy={verticalListSortingStrategy}
        >
          {cards.map((card) => (
            <SortableCard
              key={card.page_id}
              card={card}
              canEdit={canEdit}
              onOpen={() => onOpenCard(card.page_id)}
            />
          ))}
        </SortableContext>
      </div>
      {canEdit &&
        (adding ? (
          <Input
            autoFocus
            size="small"
            value={title}
            placeholder={t('kanban.taskTitle')}
            aria-label={t('kanban.taskTitle')}
            maxLength={100}
            onChange={(e) => setTitle(e.target.value)}
            onPressEnter={add}
            onBlur={() => {
              add();
              setAdding(false);
            }}
            data-testid="kanban-new-task"
          />
        ) : (
          <Button
            type="text"
            size="small"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="kanban-add-task"
          >
            {t('kanban.addTask')}
          </Button>
        ))}
    </section>
  );
}
