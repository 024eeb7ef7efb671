/**
 * One item of the list: type icon, name (a link to the item), private and star marks, archived
 * tag, description, and the actions menu. The row is draggable (see SortableList).
 */
import { HolderOutlined, LockOutlined, StarFilled } from '@ant-design/icons';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { ItemListEntry } from '../../api/types';
import type { DragBindings } from '../../components/SortableList';
import { ItemChangedTag } from '../reads/ItemChanges';
import { ItemActionsMenu, type ItemAction } from './ItemActionsMenu';
import { itemPath, itemTypeOf } from './itemTypes';

export function ItemRow({
  item,
  drag,
  onAction,
  changedPages,
}: {
  item: ItemListEntry;
  drag: DragBindings;
  onAction: (action: ItemAction) => void;
  /** Pages changed since the user last read them (models/readMarkers). */
  changedPages?: number;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const type = itemTypeOf(item.item_type);
  const archived = item.is_archived === '1';
  return (
    <div
      {...drag.rowProps}
      data-item-id={item.item_id}
      data-item-name={item.item_name}
      role="listitem"
      onClick={() => void navigate(itemPath(item))}
      style={{
        ...drag.rowProps.style,
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        minHeight: 64,
        padding: '10px 12px 10px 8px',
        marginBottom: 10,
        background: '#fff',
        borderRadius: 10,
        boxShadow: drag.dragging ? '0 6px 18px rgba(0,0,0,0.12)' : '0 0 3px rgba(0,0,0,0.08)',
        cursor: 'pointer',
      }}
    >
      <span
        {...drag.handleProps}
        aria-label={t('sort.handle', { name: item.item_name })}
        onClick={(e) => e.stopPropagation()}
        style={{ color: '#c0c6d0', cursor: 'grab', padding: '4px 2px' }}
      >
        <HolderOutlined />
      </span>
      <Tooltip title={t(type.label)}>
        <span style={{ fontSize: 20, color: '#8a94a6' }} aria-label={t(type.label)} role="img">
          {type.icon}
        </span>
      </Tooltip>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 6, minWidth: 0 }}>
          <Link
            to={itemPath(item)}
            draggable={false}
            onClick={(e) => e.stopPropagation()}
            // A drag that starts on the link would end in a click on it (a page load).
            onMouseDown={(e) => e.stopPropagation()}
            style={{
              color: '#1f2937',
              fontWeight: 500,
              fontSize: 15,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {item.item_name}
          </Link>
          {!!Number(item.is_private) && (
            <Tooltip title={t('items.private')}>
              <LockOutlined aria-label={t('items.private')} style={{ color: '#98a2b3' }} />
            </Tooltip>
          )}
          {Number(item.is_star) > 0 && (
            <StarFilled aria-label={t('items.starredMark')} style={{ color: '#f5b400' }} />
          )}
          {archived && <Tag>{t('items.archived')}</Tag>}
          <ItemChangedTag count={changedPages} />
        </div>
        {item.item_description && (
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, display: 'block' }}>
            {item.item_description}
          </Typography.Text>
        )}
      </div>
      <div onClick={(e) => e.stopPropagation()}>
        <ItemActionsMenu item={item} onAction={onAction} />
      </div>
    </div>
  );
}
