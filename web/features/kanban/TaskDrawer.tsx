/**
 * A card's detail: title, list, description (Markdown, rendered like pages), assignee (from the
 * item's people), tags, priority, due date, done — each field saved on its own, so two people
 * editing different fields of a card do not undo each other — and the task page's comments.
 */
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Checkbox,
  Descriptions,
  Divider,
  Drawer,
  Input,
  Popconfirm,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import { useLive } from '../../live/context';
import { Markdown } from '../../markdown/Markdown';
import { PageComments } from '../comments/PageComments';
import * as api from './api';
import type { KanbanCard, KanbanListShape, TaskInput } from './api';

const TAG_COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'gray'];
const PRIORITIES = ['high', 'medium', 'low'];

export default function TaskDrawer({
  itemId,
  card,
  lists,
  canEdit,
  loggedIn,
  onClose,
}: {
  itemId: number;
  card: KanbanCard | undefined;
  lists: KanbanListShape[];
  canEdit: boolean;
  loggedIn: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { socket } = useLive();
  const [people, setPeople] = useState<api.ItemPerson[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const [tagText, setTagText] = useState('');
  const [tagColor, setTagColor] = useState('blue');
  const pageId = card?.page_id ?? 0;

  useEffect(() => {
    if (canEdit) api.loadPeople(itemId).then(setPeople, () => undefined);
  }, [itemId, canEdit]);

  // The task page's room: its comments' pushes (page:comments) reach the open drawer.
  useEffect(() => {
    if (!socket || !(pageId > 0)) return;
    const watch = () => socket.emit('watch', { page_id: pageId }, () => {});
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
      if (socket.connected) socket.emit('unwatch', { page_id: pageId }, () => {});
    };
  }, [socket, pageId]);

  if (!card)
    return (
      <Drawer open onClose={onClose} title={t('kanban.taskGone')} width={520}>
        <Typography.Text type="secondary">{t('kanban.taskGoneHint')}</Typography.Text>
      </Drawer>
    );

  const save = (input: TaskInput) =>
    api
      .updateTask(card.page_id, input)
      .catch((e: unknown) =>
        message.error(e instanceof ApiRequestError ? e.message : t('kanban.failed')),
      );

  const addTag = () => {
    const text = tagText.trim();
    if (!text || card.tags.length >= 3) return;
    setTagText('');
    void save({ tags: [...card.tags, { color: tagColor, text }] });
  };

  return (
    <Drawer
      open
      onClose={onClose}
      width={560}
      data-testid="kanban-task-drawer"
      title={
        <Typography.Text
          strong
          editable={
            canEdit
              ? {
                  onChange: (next) => {
                    if (next.trim() && next.trim() !== card.page_title)
                      void save({ title: next.trim() });
                  },
                  maxLength: 100,
                }
              : false
          }
          data-testid="kanban-task-title"
        >
          {card.page_title}
        </Typography.Text>
      }
      extra={
        canEdit && (
          <Popconfirm
            title={t('kanban.deleteTaskConfirm')}
            okText={t('kanban.deleteTask')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() =>
              api
                .deleteTask(card.page_id)
                .then(onClose, (e: unknown) =>
                  message.error(e instanceof ApiRequestError ? e.message : t('kanban.failed')),
                )
            }
          >
            <Button danger size="small" icon={<DeleteOutlined />}>
              {t('kanban.deleteTask')}
            </Button>
          </Popconfirm>
        )
      }
    >
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('kanban.list')}>
          {canEdit ? (
            <Select
              size="small"
              style={{ width: 200 }}
              value={card.list_id}
              onChange={(listId: string) => {
                api
                  .moveTask(card.page_id, listId, -1)
                  .catch((e: unknown) =>
                    message.error(e instanceof ApiRequestError ? e.message : t('kanban.failed')),
                  );
              }}
              options={lists.map((l) => ({ value: l.id, label: l.title }))}
              aria-label={t('kanban.list')}
            />
          ) : (
            (lists.find((l) => l.id === card.list_id)?.title ?? '')
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('kanban.assignee')}>
          {canEdit ? (
            <Select
              size="small"
              allowClear
              style={{ width: 200 }}
              placeholder={t('kanban.unassigned')}
              value={card.assignee_uid || undefined}
              onChange={(uid?: string) => {
                const person = people.find((p) => String(p.uid) === uid);
                void save({
                  assignee_uid: uid ?? '',
                  assignee_username: person?.username ?? '',
                });
              }}
              options={[
                ...(card.assignee_uid && !people.some((p) => String(p.uid) === card.assignee_uid)
                  ? [{ value: card.assignee_uid, label: card.assignee_username }]
                  : []),
                ...people.map((p) => ({
                  value: String(p.uid),
                  label: p.username_name || p.username,
                })),
              ]}
              aria-label={t('kanban.assignee')}
              data-testid="kanban-assignee"
            />
          ) : (
            card.assignee_username || t('kanban.unassigned')
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('kanban.priorityLabel')}>
          {canEdit ? (
            <Select
              size="small"
              style={{ width: 200 }}
              value={card.priority || 'medium'}
              onChange={(priority: string) => void save({ priority })}
              options={PRIORITIES.map((p) => ({ value: p, label: t(`kanban.priority.${p}`) }))}
              aria-label={t('kanban.priorityLabel')}
            />
          ) : (
            t(`kanban.priority.${card.priority || 'medium'}`)
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('kanban.dueDate')}>
          {canEdit ? (
            <Input
              type="date"
              size="small"
              style={{ width: 200 }}
              value={card.due_date}
              onChange={(e) => void save({ due_date: e.target.value })}
              aria-label={t('kanban.dueDate')}
            />
          ) : (
            card.due_date || '—'
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('kanban.tags')}>
          <Space wrap>
            {card.tags.map((tag, i) => (
              <Tag
                key={i}
                color={tag.color}
                closable={canEdit}
                onClose={(e) => {
                  e.preventDefault();
                  void save({ tags: card.tags.filter((_, j) => j !== i) });
                }}
              >
                {tag.text}
              </Tag>
            ))}
            {canEdit && card.tags.length < 3 && (
              <Space.Compact size="small">
                <Select
                  size="small"
                  value={tagColor}
                  onChange={setTagColor}
                  style={{ width: 90 }}
                  options={TAG_COLORS.map((c) => ({
                    value: c,
                    label: <Tag color={c}>{t(`kanban.color.${c}`)}</Tag>,
                  }))}
                  aria-label={t('kanban.tagColor')}
                />
                <Input
                  size="small"
                  style={{ width: 110 }}
                  maxLength={20}
                  value={tagText}
                  placeholder={t('kanban.newTag')}
                  aria-label={t('kanban.newTag')}
                  onChange={(e) => setTagText(e.target.value)}
                  onPressEnter={addTag}
                />
              </Space.Compact>
            )}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('kanban.done')}>
          <Checkbox
            checked={card.completed}
            disabled={!canEdit}
            onChange={(e) => void save({ completed: e.target.checked })}
            aria-label={t('kanban.done')}
          />
        </Descriptions.Item>
      </Descriptions>
      <Divider titlePlacement="start" plain>
        <Space>
          {t('kanban.description')}
          {canEdit && editing === null && (
            <Button
              size="small"
              type="text"
              icon={<EditOutlined />}
              onClick={() => setEditing(card.description)}
              aria-label={t('kanban.editDescription')}
            />
          )}
        </Space>
      </Divider>
      {editing !== null ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Input.TextArea
            autoSize={{ minRows: 6, maxRows: 20 }}
            value={editing}
            onChange={(e) => setEditing(e.target.value)}
            aria-label={t('kanban.description')}
          />
          <Space>
            <Button
              type="primary"
              size="small"
              onClick={() => {
                void save({ description: editing });
                setEditing(null);
              }}
            >
              {t('common.save')}
            </Button>
            <Button size="small" onClick={() => setEditing(null)}>
              {t('common.cancel')}
            </Button>
          </Space>
        </Space>
      ) : card.description ? (
        <Markdown source={card.description} />
      ) : (
        <Typography.Text type="secondary">{t('kanban.noDescription')}</Typography.Text>
      )}
      <Divider titlePlacement="start" plain>
        {t('kanban.comments')}
      </Divider>
      <PageComments pageId={card.page_id} loggedIn={loggedIn} />
    </Drawer>
  );
}
