/**
 * The viewer's watermark (spec 002 §6, §9): for a logged-in viewer of an item whose watermark
 * flag is on, the username, today's date and the name repeat faintly (opacity 0.05) over the
 * page, so a screenshot tells who took it. It never takes a click.
 */
import { useMemo } from 'react';

export const WATERMARK_OPACITY = 0.05;

function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function watermarkText(username: string, name: string): string {
  return [username, today(), name].filter(Boolean).join(' ');
}

/** A tile with the text drawn at an angle, as an SVG data URL (no canvas needed). */
function tile(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200">` +
    `<text x="20" y="120" transform="rotate(-20 160 100)" font-family="sans-serif" font-size="16" fill="#000">${escaped}</text>` +
    `</svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

export function Watermark({ username, name }: { username: string; name: string }) {
  const text = watermarkText(username, name);
  const background = useMemo(() => tile(text), [text]);
  return (
    <div
      data-testid="watermark"
      data-text={text}
      aria-hidden="true"
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 2000,
        pointerEvents: 'none',
        opacity: WATERMARK_OPACITY,
        backgroundImage: background,
        backgroundRepeat: 'repeat',
      }}
    />
  );
}
