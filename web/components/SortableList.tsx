/**
 * Drag-to-sort for a vertical list (item list, groups). A mouse drags the whole row once it moves
 * 6 px (so clicks still click); a finger after a 250 ms press (so the page still scrolls); the
 * keyboard through the row's handle (Space to lift, arrows to move, Space to drop). The new
 * order is reported once, on drop.
 */
import { HolderOutlined } from '@ant-design/icons';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface DragBindings {
  /** Spread on the row's outer element. */
  rowProps: HTMLAttributes<HTMLElement> & {
    ref: (element: HTMLElement | null) => void;
    style: CSSProperties;
  };
  /** Spread on the drag handle (keyboard dragging, screen-reader role). */
  handleProps: HTMLAttributes<HTMLElement> & { ref: (element: HTMLElement | null) => void };
  dragging: boolean;
}

function SortableRow({
  id,
  disabled,
  children,
}: {
  id: string;
  disabled?: boolean;
  children: (drag: DragBindings) => ReactNode;
}) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id, disabled });
  const { onKeyDown, ...pointerListeners } = (listeners ?? {}) as Record<
    string,
    (event: unknown) => void
  >;
  return children({
    rowProps: {
      ref: setNodeRef,
      style: {
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 5 : undefined,
        opacity: isDragging ? 0.85 : 1,
      },
      ...(pointerListeners as HTMLAttributes<HTMLElement>),
    },
    handleProps: {
      ref: setActivatorNodeRef,
      ...(attributes as HTMLAttributes<HTMLElement>),
      onKeyDown: onKeyDown as HTMLAttributes<HTMLElement>['onKeyDown'],
    },
    dragging: isDragging,
  });
}

export function SortableList<T>({
  items,
  getId,
  getLabel,
  onReorder,
  disabled,
  children,
}: {
  items: T[];
  getId: (item: T) => string;
  /** Spoken name of an entry (screen-reader announcements). */
  getLabel: (item: T) => string;
  onReorder: (next: T[]) => void;
  disabled?: boolean;
  children: (item: T, drag: DragBindings) => ReactNode;
}) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = items.map(getId);
  const label = (id: UniqueIdentifier) => {
    const found = items.find((item) => getId(item) === String(id));
    return found ? getLabel(found) : String(id);
  };
  const position = (id: UniqueIdentifier | undefined) =>
    id === undefined ? 0 : ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('sort.picked', { name: label(active.id) }),
    onDragOver: ({ active, over }) =>
      t('sort.over', { name: label(active.id), position: position(over?.id), total: ids.length }),
    onDragEnd: ({ active, over }) =>
      t('sort.dropped', {
        name: label(active.id),
        position: position(over?.id),
        total: ids.length,
      }),
    onDragCancel: ({ active }) => t('sort.cancelled', { name: label(active.id) }),
  };

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from < 0 || to < 0) return;
    onReorder(arrayMove(items, from, to));
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: t('sort.instructions') },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={disabled}>
        {items.map((item) => (
          <SortableRow key={getId(item)} id={getId(item)} disabled={disabled}>
            {(drag) => children(item, drag)}
          </SortableRow>
        ))}
      </SortableContext>
    </DndContext>
  );
}

/**
 * How a sortable row looks (groups, sort pages): a bordered card, tinted while dragged, with the
 * grab handle first and the row's content after it. `attributes` go on the row (test ids, data).
 */
export function SortableCard({
  drag,
  handleLabel,
  attributes,
  children,
}: {
  drag: DragBindings;
  /** The handle's accessible name ("Drag to move …"). */
  handleLabel: string;
  attributes?: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <div
      {...drag.rowProps}
      {...attributes}
      role="listitem"
      style={{
        ...drag.rowProps.style,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: '8px 10px',
        marginBottom: 6,
        background: drag.dragging ? '#eef4ff' : '#fff',
        border: '1px solid #edf0f3',
        borderRadius: 8,
        cursor: 'grab',
      }}
    >
      <span
        {...drag.handleProps}
        aria-label={handleLabel}
        style={{ color: '#98a2b3', cursor: 'grab', padding: 4 }}
      >
        <HolderOutlined />
      </span>
      {children}
    </div>
  );
}
