/**
 * A right-click menu opened at the pointer. It is measured once it is on screen and, when it
 * would run past an edge, pushed back to stay 5 px inside the viewport (spec 001 §9). Escape, a
 * click elsewhere, scrolling or resizing close it.
 */
import { Menu, type MenuProps } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { placeWithin } from './tree';

export function ContextMenu({
  at,
  items,
  label,
  onSelect,
  onClose,
}: {
  /** Pointer position (viewport coordinates). */
  at: { x: number; y: number };
  items: NonNullable<MenuProps['items']>;
  /** Accessible name of the menu. */
  label: string;
  onSelect: (key: string) => void;
  onClose: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const { width, height } = element.getBoundingClientRect();
    setPlace(
      placeWithin(
        at,
        { width, height },
        // The layout viewport without scroll bars: what is really visible.
        {
          width: document.documentElement.clientWidth,
          height: document.documentElement.clientHeight,
        },
      ),
    );
  }, [at]);

  useEffect(() => {
    const outside = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) onClose();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    const close = () => onClose();
    document.addEventListener('mousedown', outside, true);
    document.addEventListener('keydown', escape);
    window.addEventListener('resize', close);
    window.addEventListener('scroll', close, true);
    return () => {
      document.removeEventListener('mousedown', outside, true);
      document.removeEventListener('keydown', escape);
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', close, true);
    };
  }, [onClose]);

  return createPortal(
    <div
      ref={box}
      data-testid="catalog-context-menu"
      role="presentation"
      onContextMenu={(event) => event.preventDefault()}
      style={{
        position: 'fixed',
        left: place?.left ?? at.x,
        top: place?.top ?? at.y,
        // Measured first, shown once placed (no flash at the wrong spot).
        visibility: place ? 'visible' : 'hidden',
        zIndex: 1100,
        minWidth: 168,
        borderRadius: 8,
        background: '#fff',
        boxShadow: '0 6px 16px rgba(0,0,0,0.12), 0 3px 6px -4px rgba(0,0,0,0.12)',
      }}
    >
      <Menu
        aria-label={label}
        selectable={false}
        items={items}
        style={{ border: 'none', borderRadius: 8 }}
        onClick={({ key }) => {
          onClose();
          onSelect(key);
        }}
      />
    </div>,
    document.body,
  );
}
