/**
 * The table of contents beside the page (spec 001 §9: 160 px wide, open by default on screens
 * wider than 1000 px, jumps leave 130 px for the header). The entry of the heading being read is
 * marked as the reader scrolls.
 */
import { UnorderedListOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TocEntry } from '../../markdown';

export const TOC_WIDTH = 160;
export const TOC_SCROLL_OFFSET = 130;

export function scrollToHeading(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  const top = target.getBoundingClientRect().top + window.scrollY - TOC_SCROLL_OFFSET;
  window.scrollTo({ top, behavior: 'smooth' });
}

function useActiveHeading(toc: TocEntry[]): string | null {
  const [active, setActive] = useState<string | null>(null);
  useEffect(() => {
    if (toc.length === 0) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      let current: string | null = toc[0].id;
      for (const entry of toc) {
        const element = document.getElementById(entry.id);
        if (element && element.getBoundingClientRect().top <= TOC_SCROLL_OFFSET + 10)
          current = entry.id;
      }
      setActive(current);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [toc]);
  return active;
}

export function TocPanel({
  toc,
  open,
  onToggle,
  top,
}: {
  toc: TocEntry[];
  open: boolean;
  onToggle: () => void;
  /** Distance from the top of the window (below the header). */
  top: number;
}) {
  const { t } = useTranslation();
  const active = useActiveHeading(open ? toc : []);
  if (toc.length === 0) return null;
  const minLevel = Math.min(...toc.map((e) => e.level));
  return (
    <aside
      aria-label={t('reader.toc')}
      style={{ position: 'fixed', right: 16, top, width: open ? TOC_WIDTH : 'auto', zIndex: 5 }}
    >
      <Tooltip title={t('reader.toc')} placement="left">
        <Button
          size="small"
          icon={<UnorderedListOutlined />}
          aria-label={t('reader.toc')}
          aria-expanded={open}
          onClick={onToggle}
          style={{ float: 'right' }}
        />
      </Tooltip>
      {open && (
        <nav
          data-testid="toc"
          style={{
            clear: 'both',
            paddingTop: 8,
            maxHeight: `calc(100vh - ${top + 60}px)`,
            overflowY: 'auto',
            borderLeft: '2px solid #eceef2',
          }}
        >
          {toc.map((entry) => (
            <a
              key={entry.id}
              href={`#${encodeURIComponent(entry.id)}`}
              data-testid="toc-entry"
              onClick={(event) => {
                event.preventDefault();
                scrollToHeading(entry.id);
                history.replaceState(history.state, '', `#${encodeURIComponent(entry.id)}`);
              }}
              style={{
                display: 'block',
                padding: `2px 8px 2px ${8 + (entry.level - minLevel) * 10}px`,
                fontSize: 12,
                lineHeight: 1.6,
                color: active === entry.id ? '#2f6fde' : '#59636e',
                fontWeight: active === entry.id ? 600 : 400,
                marginLeft: -2,
                borderLeft: active === entry.id ? '2px solid #2f6fde' : '2px solid transparent',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
              }}
              title={entry.text}
            >
              {entry.text}
            </a>
          ))}
        </nav>
      )}
    </aside>
  );
}
