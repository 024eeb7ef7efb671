/**
 * A loading overlay that closes by itself after `limitMs` even when the work it covers has not
 * finished (spec 002 §8: "a loading overlay on project load is closed after 20 s at the latest;
 * a config save overlay is closed after 30 s"), so a hung request never locks the screen.
 */
import { Spin } from 'antd';
import { useEffect, useState } from 'react';

/** Spec 002 §8: the item-load overlay's longest life. */
export const ITEM_LOAD_OVERLAY_MS = 20_000;
/** Spec 002 §8: the config-save overlay's longest life. */
export const CONFIG_SAVE_OVERLAY_MS = 30_000;

/** True while `active`, but for at most `limitMs` per stretch of activity. */
export function useCappedOverlay(active: boolean, limitMs: number): boolean {
  // The stretch that timed out: a new stretch (active again after a pause) shows again.
  const [stretch, setStretch] = useState(0);
  const [expired, setExpired] = useState(-1);
  const [wasActive, setWasActive] = useState(active);
  if (active !== wasActive) {
    setWasActive(active);
    if (active) setStretch((s) => s + 1);
  }
  useEffect(() => {
    if (!active) return;
    const timer = window.setTimeout(() => setExpired(stretch), limitMs);
    return () => window.clearTimeout(timer);
  }, [active, stretch, limitMs]);
  return active && expired !== stretch;
}

export function LoadingOverlay({
  active,
  limitMs,
  label,
}: {
  active: boolean;
  limitMs: number;
  /** What is happening (the overlay's accessible name). */
  label: string;
}) {
  const shown = useCappedOverlay(active, limitMs);
  if (!shown) return null;
  return (
    <div
      role="status"
      aria-label={label}
      data-testid="loading-overlay"
      data-limit-ms={limitMs}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1200,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'rgba(255, 255, 255, 0.55)',
      }}
    >
      <Spin size="large" />
    </div>
  );
}
