/**
 * The page's open suggestions as a list, each with its author and the change highlighted in a
 * little of its context (removed text struck through, added text coloured). Reviewers get
 * Accept / Reject per suggestion and for all of one author. The editor's side panel and the
 * reader's box both show this.
 */
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppFeedback } from '../../components/AppFeedback';
import { reviewSuggestions, type Suggestion, type SuggestionList as List } from './api';

const insStyle = { color: '#137333', background: 'rgba(19,115,51,0.12)', textDecoration: 'none' };
const delStyle = { color: '#b3261e', background: 'rgba(179,38,30,0.08)' };

function Change({ s }: { s: Suggestion }) {
  const tail = (text: string) => (text.length > 24 ? `…${text.slice(-24)}` : text);
  const head = (text: string) => (text.length > 24 ? `${text.slice(0, 24)}…` : text);
  return (
    <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontSize: 13 }}>
      <span style={{ color: '#888' }}>{tail(s.before)}</span>
      {s.old_text && <del style={delStyle}>{s.old_text}</del>}
      {s.new_text && (
        <ins style={insStyle} data-testid="suggestion-inserted">
          {s.new_text}
        </ins>
      )}
      <span style={{ color: '#888' }}>{head(s.after)}</span>
    </div>
  );
}

export function SuggestionList({
  pageId,
  list,
  onReviewed,
}: {
  pageId: number;
  list: List;
  onReviewed(): void;
}) {
  const { t } = useTranslation();
  const { message } = useAppFeedback();
  const [busy, setBusy] = useState(false);
  const authors = new Map<string, string>();
  for (const s of list.suggestions) authors.set(s.author_key, s.author_name);

  const review = async (accept: boolean, pick: { ids: number[] } | { authorKey: string }) => {
    setBusy(true);
    try {
      const done = await reviewSuggestions(pageId, accept, pick);
      if (done.stale.length) void message.warning(t('suggest.stale', { count: done.stale.length }));
      else void message.success(t(accept ? 'suggest.accepted' : 'suggest.rejected'));
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
      onReviewed();
    }
  };

  return (
    <div data-testid="suggestion-list">
      {list.can_review && authors.size > 0 && (
        <div style={{ marginBottom: 8 }}>
          {[...authors].map(([key, name]) => (
            <Space key={key} wrap size={4} style={{ marginBottom: 4 }}>
              <Typography.Text type="secondary">{t('suggest.allBy', { name })}</Typography.Text>
              <Button
                size="small"
                disabled={busy}
                data-testid="suggestion-accept-author"
                onClick={() => void review(true, { authorKey: key })}
              >
                {t('suggest.accept')}
              </Button>
              <Button
                size="small"
                disabled={busy}
                data-testid="suggestion-reject-author"
                onClick={() => void review(false, { authorKey: key })}
              >
                {t('suggest.reject')}
              </Button>
            </Space>
          ))}
        </div>
      )}
      {list.suggestions.map((s) => (
        <div
          key={s.suggestion_id}
          data-testid="suggestion-item"
          data-suggestion-id={s.suggestion_id}
          style={{ borderTop: '1px solid #eceef2', padding: '8px 0' }}
        >
          <Space size={4} style={{ marginBottom: 4 }}>
            <Typography.Text strong>{s.author_name}</Typography.Text>
            {s.is_agent === 1 && <Tag color="purple">{t('suggest.agent')}</Tag>}
          </Space>
          <Change s={s} />
          {list.can_review && (
            <Space size={4} style={{ marginTop: 4 }}>
              <Button
                size="small"
                type="primary"
                disabled={busy}
                data-testid="suggestion-accept"
                onClick={() => void review(true, { ids: [s.suggestion_id] })}
              >
                {t('suggest.accept')}
              </Button>
              <Button
                size="small"
                disabled={busy}
                data-testid="suggestion-reject"
                onClick={() => void review(false, { ids: [s.suggestion_id] })}
              >
                {t('suggest.reject')}
              </Button>
            </Space>
          )}
        </div>
      ))}
    </div>
  );
}
