/**
 * The live connection's state as a small dot (style practice 9: sync state is visible): green
 * when pushes flow, amber while reconnecting (the app falls back to polling meanwhile).
 */
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLive } from '../../live/context';

const COLOURS = {
  connected: '#22a06b',
  connecting: '#d0d5dd',
  reconnecting: '#e2a03f',
  refused: '#d0d5dd',
} as const;

export function ConnectionIndicator() {
  const { t } = useTranslation();
  const { state } = useLive();
  const label = t(`live.${state}`);
  return (
    <Tooltip title={label}>
      <span
        role="status"
        aria-label={label}
        data-state={state}
        style={{
          display: 'inline-block',
          width: 10,
          height: 10,
          borderRadius: '50%',
          background: COLOURS[state],
          boxShadow: state === 'connected' ? '0 0 0 3px rgba(34,160,107,0.15)' : undefined,
        }}
      />
    </Tooltip>
  );
}
