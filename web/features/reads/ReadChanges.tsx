/**
 * "Show changes" above an open page (its own lazy chunk, for logged-in readers only):
 *
 * - a page changed since the viewer last read it offers the blocks added or changed since then,
 *   highlighted in place with who changed them and when, and a link to the full diff screen;
 * - a save by someone else while the page is open (once its content is on screen) shows a quiet
 *   "updated by X — show changes" bar comparing with the version that was on screen before.
 *
 * The comparison is the server's (read/changes): the reader downloads no diff code.
 */
import { DiffOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { Alert, Button, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveEvent } from '../../live/useLiveEvent';
import { diffPath } from '../reader/paths';
import { fetchChanges, type PageChanges } from './api';
import { keepHighlighted } from './highlight';
import './reads.css';

interface Offer {
  /** `marker`: since the last read; `live`: a save while reading. */
  source: 'marker' | 'live';
  changes: PageChanges;
}

function articleContent(anchor: HTMLElement | null): HTMLElement | null {
  return (
    anchor?.closest('[data-testid="page-article"]')?.querySelector<HTMLElement>('.md-content') ??
    null
  );
}

export default function ReadChanges({
  pageId,
  version,
  changedAtOpen,
  selfUid,
}: {
  pageId: number;
  /** `addtime` (Unix seconds) of the version on screen. */
  version: number;
  /** The page was flagged as changed since the last read when it was opened. */
  changedAtOpen: boolean;
  selfUid: number;
}) {
  const { t, i18n } = useTranslation();
  const anchor = useRef<HTMLDivElement>(null);
  const [offer, setOffer] = useState<Offer | null>(null);
  const [shown, setShown] = useState(false);
  // A save by someone else: compare with what was on screen when it arrived.
  const [pendingLive, setPendingLive] = useState<{ since: number; addtime: number } | null>(null);
  const versionRef = useRef(version);
  versionRef.current = version;

  useEffect(() => {
    if (!changedAtOpen) return;
    let current = true;
    fetchChanges(pageId).then(
      (changes) => current && changes.changed && setOffer({ source: 'marker', changes }),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [pageId, changedAtOpen]);

  useLiveEvent('page:saved', (payload) => {
    if (payload.page_id !== pageId || payload.author.uid === selfUid) return;
    setPendingLive((p) => p ?? { since: versionRef.current, addtime: payload.addtime });
  });

  // Once the newer content is on screen, ask what moved (the answer is dropped on unmount only).
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (!pendingLive || version < pendingLive.addtime) return;
    setPendingLive(null);
    fetchChanges(pageId, pendingLive.since).then(
      (changes) => {
        if (!mounted.current || !changes.changed) return;
        setShown(false);
        setOffer({ source: 'live', changes });
      },
      () => {},
    );
  }, [pendingLive, version, pageId]);

  const changes = offer?.changes;
  const names = changes ? changes.authors.map((a) => a.username).join(', ') : '';
  const time = changes
    ? new Date(changes.addtime * 1000).toLocaleString(i18n.language.replace('_', '-'), {
        dateStyle: 'short',
        timeStyle: 'short',
      })
    : '';

  useEffect(() => {
    const root = articleContent(anchor.current);
    if (!shown || !changes || !root) return;
    const stop = keepHighlighted(root, changes.blocks, t('reads.by', { names, time }));
    root.querySelector('[data-read-change]')?.scrollIntoView({ block: 'center' });
    return stop;
  }, [shown, changes, names, time, t]);

  return (
    <div ref={anchor} data-testid="read-changes">
      {offer && changes && (
        <Alert
          type="info"
          showIcon={false}
          style={{ marginBottom: 12, padding: '6px 12px' }}
          data-testid={offer.source === 'live' ? 'read-live-bar' : 'read-since-bar'}
          title={
            offer.source === 'live'
              ? t('reads.liveUpdated', { name: changes.author_username })
              : t('reads.sinceRead', { names, time })
          }
          description={
            changes.removed > 0 && shown ? t('reads.removed', { count: changes.removed }) : null
          }
          action={
            <Space size={4}>
              <Button
                size="small"
                type={shown ? 'default' : 'primary'}
                icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                onClick={() => setShown((s) => !s)}
                data-testid="read-show-changes"
              >
                {shown ? t('reads.hide') : t('reads.show')}
              </Button>
              {changes.page_history_id > 0 && (
                <Button
                  size="small"
                  type="link"
                  icon={<DiffOutlined />}
                  href={diffPath(pageId, changes.page_history_id)}
                  target="_blank"
                  data-testid="read-full-diff"
                >
                  {t('reads.fullDiff')}
                </Button>
              )}
            </Space>
          }
        />
      )}
    </div>
  );
}
