/** One icon button of the reader header, its label as tooltip and accessible name. */
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';

export function HeaderIcon({
  label,
  icon,
  onClick,
  testId,
}: {
  label: string;
  icon: ReactNode;
  onClick?: () => void;
  testId?: string;
}) {
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} icon={icon} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );
}
