/**
 * An icon button of the editor toolbar: tooltip as its accessible name, optional count badge or
 * drop-down menu.
 */
import { Badge, Button, Tooltip, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { LazyDropdown } from '../../components/LazyDropdown';

export function ToolButton({
  testId,
  icon,
  tip,
  onClick,
  disabled = false,
  badge,
  menu,
}: {
  testId: string;
  icon: ReactNode;
  /** What the button does (shown on hover; with `disabled`, why it cannot be used). */
  tip: string;
  onClick?: () => void;
  disabled?: boolean;
  /** A count shown on the button (hidden at 0) and exposed as `data-count` for tests. */
  badge?: number;
  /** A menu that opens on click instead of `onClick`. */
  menu?: MenuProps;
}) {
  let button = (
    <Button
      type="text"
      icon={icon}
      aria-label={tip}
      data-testid={testId}
      data-count={badge}
      disabled={disabled}
      onClick={onClick}
    />
  );
  if (menu)
    button = (
      <LazyDropdown menu={menu} trigger={['click']} disabled={disabled}>
        {button}
      </LazyDropdown>
    );
  // The span takes the hover: a disabled button gets no mouse events, yet its tooltip says why.
  return (
    <Tooltip title={tip}>
      <span style={{ display: 'inline-block' }}>
        {badge === undefined ? (
          button
        ) : (
          <Badge count={badge} size="small" offset={[-4, 4]}>
            {button}
          </Badge>
        )}
      </span>
    </Tooltip>
  );
}
