/**
 * antd's Dropdown, with its menu code (rc-menu, the menu and dropdown styles: ~19 KiB gzip)
 * loaded when the trigger is first pointed at, focused or clicked rather than with the screen:
 * the reader's language switch and manager menu, the editor's save menu. Until then the trigger
 * is rendered alone; a click before the code is in opens the menu as soon as it is, and gives the
 * focus back to the trigger (it is mounted again inside the real Dropdown).
 */
import type { DropdownProps } from 'antd';
import {
  cloneElement,
  lazy,
  Suspense,
  useState,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
} from 'react';

const loadDropdown = () => import('antd/es/dropdown');
const Dropdown = lazy(loadDropdown);

type TriggerProps = {
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  autoFocus?: boolean;
};

export function LazyDropdown({
  children,
  open,
  onOpenChange,
  ...props
}: Omit<DropdownProps, 'children'> & { children: ReactElement<TriggerProps> }) {
  const [mounted, setMounted] = useState(false);
  const [innerOpen, setInnerOpen] = useState(false);
  const [refocus, setRefocus] = useState(false);
  const hover = (props.trigger ?? ['hover']).includes('hover');
  const own = children.props;

  if (!mounted) {
    const start = (event: MouseEvent<HTMLElement>) => {
      setRefocus(document.activeElement === event.currentTarget);
      setInnerOpen(true);
      setMounted(true);
    };
    return cloneElement(children, {
      onMouseEnter: (event) => {
        void loadDropdown();
        if (hover) start(event);
        own.onMouseEnter?.(event);
      },
      onFocus: (event) => {
        void loadDropdown();
        own.onFocus?.(event);
      },
      onClick: (event) => {
        start(event);
        own.onClick?.(event);
      },
    });
  }
  const trigger = refocus ? cloneElement(children, { autoFocus: true }) : children;
  return (
    <Suspense fallback={children}>
      <Dropdown
        {...props}
        open={open ?? innerOpen}
        onOpenChange={(next, info) => {
          setInnerOpen(next);
          onOpenChange?.(next, info);
        }}
      >
        {trigger}
      </Dropdown>
    </Suspense>
  );
}
