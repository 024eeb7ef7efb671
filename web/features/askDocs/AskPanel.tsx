/**
 * The reader's "Ask" panel: questions to the item's assistant (web/api/agent.ts), the answer as
 * it streams, rendered by the same sanitising Markdown renderer as pages, the pages it read as
 * citations that open in the reader, feedback, stop and a new session. Loaded on first use, so
 * the reader's first paint carries none of it.
 */
import { DislikeOutlined, LikeOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Input, Space, Spin, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  agentConfig,
  askQuestion,
  cancelAnswer,
  type Citation,
  loadSession,
  newSession,
  sendFeedback,
} from '../../api/agent';
import { Markdown } from '../../markdown/Markdown';
import { itemAddress, readerPath } from '../reader/paths';
import type { ItemInfo } from '../reader/types';
import './askPanel.css';

/** The server's fixed answer when the tools found nothing (shown in the reader's language). */
const NOT_FOUND = 'I could not find this in the docs.';

interface Turn {
  key: string;
  id: number;
  role: 'user' | 'assistant';
  content: string;
  feedback: number;
  citations: Citation[];
  error?: string;
}

function formatDate(seconds: number): string {
  return seconds ? new Date(seconds * 1000).toLocaleString() : '';
}

export default function AskPanel({ item, onClose }: { item: ItemInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const itemId = Number(item.item_id);
  const [state, setState] = useState<'loading' | 'ready' | 'off' | 'failed'>('loading');
  const [failure, setFailure] = useState('');
  const [welcome, setWelcome] = useState('');
  const [sessionId, setSessionId] = useState(0);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [question, setQuestion] = useState('');
  const [busy, setBusy] = useState(false);
  const [working, setWorking] = useState(false);
  const running = useRef<{ abort: AbortController; turnToken: string } | null>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let current = true;
    (async () => {
      const config = await agentConfig(itemId);
      if (!config.enabled) {
        if (current) setState('off');
        return;
      }
      const loaded = await loadSession(itemId);
      if (!current) return;
      setWelcome(loaded.welcome_message);
      setSessionId(loaded.session_id);
      setTurns(
        loaded.messages.map((m) => ({
          key: `m${m.id}`,
          id: m.id,
          role: m.role === 'user' ? 'user' : 'assistant',
          content: m.content,
          feedback: m.feedback,
          citations: m.citations,
        })),
      );
      setState('ready');
    })().catch((error: Error) => {
      if (!current) return;
      setFailure(error.message);
      setState('failed');
    });
    return () => {
      current = false;
      running.current?.abort.abort();
    };
  }, [itemId]);

  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [turns]);

  const openPage = useCallback(
    (pageId: number) => void navigate(readerPath(itemAddress(item), pageId)),
    [item, navigate],
  );

  /** Links inside an answer ("/item/page") open in the reader, not as a full page load. */
  const followLink = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href') ?? '';
    const match = /^\/(\d+)\/(\d+)$/.exec(href);
    if (!match) return;
    event.preventDefault();
    openPage(Number(match[2]));
  };

  const patchLast = (change: (turn: Turn) => Turn) =>
    setTurns((all) => [...all.slice(0, -1), change(all[all.length - 1]!)]);

  async function ask() {
    const message = question.trim();
    if (!message || busy) return;
    setBusy(true);
    setWorking(true);
    setQuestion('');
    try {
      let id = sessionId;
      if (!id) {
        id = (await newSession(itemId)).session_id;
        setSessionId(id);
      }
      const stamp = Date.now();
      setTurns((all) => [
        ...all,
        { key: `q${stamp}`, id: 0, role: 'user', content: message, feedback: 0, citations: [] },
        { key: `a${stamp}`, id: 0, role: 'assistant', content: '', feedback: 0, citations: [] },
      ]);
      const abort = new AbortController();
      const turnToken = `t${stamp}`;
      running.current = { abort, turnToken };
      await askQuestion({
        itemId,
        sessionId: id,
        message,
        turnToken,
        signal: abort.signal,
        onEvent(event) {
          if (event.type === 'text') {
            setWorking(false);
            patchLast((turn) => ({ ...turn, content: turn.content + event.content }));
          } else if (event.type === 'ref' && !event.source)
            patchLast((turn) => ({
              ...turn,
              content: `${turn.content}[${event.page_title.replace(/[[\]]/g, '')}](/${event.item_id}/${event.page_id})`,
            }));
          else if (event.type === 'citations')
            patchLast((turn) => ({ ...turn, citations: event.citations }));
          else if (event.type === 'message_id')
            patchLast((turn) => ({ ...turn, id: Number(event.content) }));
          else if (event.type === 'error') patchLast((turn) => ({ ...turn, error: event.message }));
        },
      }).catch((error: Error) => {
        if (abort.signal.aborted) return;
        patchLast((turn) => ({ ...turn, error: error.message }));
      });
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      running.current = null;
      setBusy(false);
      setWorking(false);
    }
  }

  function stop() {
    const turn = running.current;
    if (!turn) return;
    void cancelAnswer(sessionId, turn.turnToken).catch(() => undefined);
    turn.abort.abort();
  }

  async function startOver() {
    stop();
    try {
      setSessionId((await newSession(itemId)).session_id);
      setTurns([]);
    } catch (error) {
      setFailure((error as Error).message);
    }
  }

  async function rate(turn: Turn, value: 1 | 2) {
    const next = turn.feedback === value ? 0 : value;
    await sendFeedback(turn.id, next).catch(() => undefined);
    setTurns((all) => all.map((t) => (t.key === turn.key ? { ...t, feedback: next } : t)));
  }

  return (
    <Drawer
      open
      mask={false}
      width={440}
      title={t('askDocs.title')}
      onClose={onClose}
      extra={
        state === 'ready' && (
          <Button icon={<PlusOutlined />} onClick={() => void startOver()} data-testid="ask-new">
            {t('askDocs.newSession')}
          </Button>
        )
      }
      styles={{ body: { display: 'flex', flexDirection: 'column', padding: 0 } }}
      data-testid="ask-panel"
    >
      {state === 'loading' && <Spin style={{ margin: 24 }} />}
      {state === 'off' && <Alert style={{ margin: 16 }} type="info" message={t('askDocs.off')} />}
      {failure && (
        <Alert
          style={{ margin: 16 }}
          type="error"
          message={failure}
          closable
          onClose={() => setFailure('')}
        />
      )}
      {state === 'ready' && (
        <>
          <div className="ask-list" ref={list} onClick={followLink}>
            <div className="ask-turn ask-assistant">
              <Typography.Paragraph>{welcome || t('askDocs.welcome')}</Typography.Paragraph>
            </div>
            {turns.map((turn) => (
              <div
                key={turn.key}
                className={`ask-turn ask-${turn.role}`}
                data-testid={`ask-${turn.role}`}
              >
                {turn.role === 'user' ? (
                  <Typography.Paragraph>{turn.content}</Typography.Paragraph>
                ) : (
                  <>
                    {turn.content.trim() === NOT_FOUND ? (
                      <Typography.Paragraph>{t('askDocs.notFound')}</Typography.Paragraph>
                    ) : (
                      turn.content && <Markdown source={turn.content} />
                    )}
                    {!turn.content && !turn.error && working && <Spin size="small" />}
                    {turn.error && <Alert type="error" message={turn.error} />}
                    {turn.citations.length > 0 && (
                      <div className="ask-citations" data-testid="ask-citations">
                        <Typography.Text type="secondary">{t('askDocs.sources')}</Typography.Text>
                        <ol>
                          {turn.citations.map((c) => (
                            <li key={c.page_id}>
                              <a
                                href={readerPath(itemAddress(item), c.page_id)}
                                onClick={(event) => {
                                  event.preventDefault();
                                  event.stopPropagation();
                                  openPage(c.page_id);
                                }}
                                data-testid="ask-citation"
                              >
                                {c.page_title}
                              </a>{' '}
                              <Typography.Text type="secondary">
                                {t('askDocs.version', {
                                  version: c.version,
                                  date: formatDate(c.addtime),
                                })}
                              </Typography.Text>
                            </li>
                          ))}
                        </ol>
                      </div>
                    )}
                    {turn.id > 0 && (
                      <Space size={4}>
                        <Tooltip title={t('askDocs.helpful')}>
                          <Button
                            size="small"
                            type={turn.feedback === 1 ? 'primary' : 'text'}
                            icon={<LikeOutlined />}
                            aria-label={t('askDocs.helpful')}
                            onClick={() => void rate(turn, 1)}
                          />
                        </Tooltip>
                        <Tooltip title={t('askDocs.notHelpful')}>
                          <Button
                            size="small"
                            type={turn.feedback === 2 ? 'primary' : 'text'}
                            icon={<DislikeOutlined />}
                            aria-label={t('askDocs.notHelpful')}
                            onClick={() => void rate(turn, 2)}
                          />
                        </Tooltip>
                      </Space>
                    )}
                  </>
                )}
              </div>
            ))}
          </div>
          <div className="ask-input">
            {busy && working && (
              <Typography.Text type="secondary">{t('askDocs.working')}</Typography.Text>
            )}
            <Input.TextArea
              value={question}
              onChange={(e) => setQuestion(e.target.value)}
              autoSize={{ minRows: 2, maxRows: 6 }}
              placeholder={t('askDocs.placeholder')}
              aria-label={t('askDocs.placeholder')}
              onPressEnter={(e) => {
                if (!e.shiftKey) {
                  e.preventDefault();
                  void ask();
                }
              }}
              data-testid="ask-input"
            />
            {busy ? (
              <Button danger onClick={stop} data-testid="ask-stop">
                {t('askDocs.stop')}
              </Button>
            ) : (
              <Button
                type="primary"
                onClick={() => void ask()}
                disabled={!question.trim()}
                data-testid="ask-send"
              >
                {t('askDocs.send')}
              </Button>
            )}
          </div>
        </>
      )}
    </Drawer>
  );
}
