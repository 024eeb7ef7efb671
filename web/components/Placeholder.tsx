/**
 * Grey lines standing for text still loading, drawn like antd's active Skeleton (a title bar and
 * paragraph lines, the last one shorter) with a few lines of CSS: the reader shows one before its
 * first paint, and antd's Skeleton (avatar, button, image and input shapes, their styles) added
 * ~3 KiB gzip to every reader's download for this.
 */
import './placeholder.css';

export function Placeholder({
  rows = 3,
  padded = false,
}: {
  /** Paragraph lines under the title bar. */
  rows?: number;
  /** 40 px around it, where it stands for a whole screen. */
  padded?: boolean;
}) {
  return (
    <div className="q-placeholder" style={padded ? { padding: 40 } : undefined} aria-busy="true">
      <div className="q-placeholder-title" />
      {Array.from({ length: rows }, (_, n) => (
        <div
          key={n}
          className="q-placeholder-line"
          style={n === rows - 1 ? { width: '61%' } : undefined}
        />
      ))}
    </div>
  );
}
