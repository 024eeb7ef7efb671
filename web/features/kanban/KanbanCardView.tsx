/** One card on the board: title, tags, priority, due date, assignee; a drag handle for editors. */
import { CheckCircleFilled, HolderOutlined } from '@ant-design/icons';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Avatar, Tag, Tooltip, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { KanbanCard } from './api';

export const cardKey = (pageId: number) => `card:${pageId}`;

const PRIORITY_COLORS: Record<string, string> = { high: 'red', medium: 'blue', low: 'green' };

export function CardBody({ card }: { card: KanbanCard }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Text
        delete={card.completed}
        style={{ display: 'block', fontWeight: 500 }}
        data-testid="kanban-card-title"
      >
        {card.completed && <CheckCircleFilled style={{ color: '#52c41a', marginRight: 4 }} />}
        {card.page_title}
      </Typography.Text>
      <div
        style={{ marginTop: 6, display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}
      >
        {card.tags.map((tag, i) => (
          <Tag key={i} color={tag.color} style={{ marginInlineEnd: 0 }}>
            {tag.text}
          </Tag>
        ))}
        {card.priority && card.priority !== 'medium' && (
          <Tag
            color={PRIORITY_COLORS[card.priority]}
            bordered={false}
            style={{ marginInlineEnd: 0 }}
          >
            {t(`kanban.priority.${card.priority}`)}
          </Tag>
        )}
        {card.due_date && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {card.due_date}
          </Typography.Text>
        )}
        {card.assignee_username && (
          <Tooltip title={card.assignee_username}>
            <Avatar size={20} style={{ marginLeft: 'auto', fontSize: 11 }}>
              {card.assignee_username.slice(0, 1).toUpperCase()}
            </Avatar>
          </Tooltip>
        )}
      </div>
    </>
  );
}

export function SortableCard({
  card,
  canEdit,
  onOpen,
}: {
  card: KanbanCard;
  canEdit: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: cardKey(card.page_id), disabled: !canEdit, data: { type: 'card' } });
  return (
    <div
      ref={setNodeRef}
      data-testid="kanban-card"
      data-page-id={card.page_id}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.4 : 1,
        background: 'var(--ant-color-bg-container, #fff)',
        border: '1px solid rgba(5,5,5,0.08)',
        borderRadius: 8,
        padding: '8px 10px',
        marginBottom: 8,
        display: 'flex',
        gap: 6,
        cursor: 'pointer',
        boxShadow: '0 1px 2px rgba(0,0,0,0.04)',
      }}
      onClick={onOpen}
    >
      {canEdit && (
        <span
          ref={setActivatorNodeRef}
          {...(attributes as HTMLAttributes<HTMLSpanElement>)}
          {...(listeners as HTMLAttributes<HTMLSpanElement>)}
          onClick={(e) => e.stopPropagation()}
          aria-label={t('kanban.dragCard', { title: card.page_title })}
          data-testid="kanban-drag-handle"
          style={{ cursor: 'grab', color: 'rgba(0,0,0,0.35)', touchAction: 'none', paddingTop: 2 }}
        >
          <HolderOutlined />
        </span>
      )}
      <div style={{ flex: 1, minWidth: 0 }}>
        <CardBody card={card} />
      </div>
    </div>
  );
}
