/**
 * The comments under a page (items with `allow_comment`): newest first, each with its replies;
 * logged-in readers write and reply (two levels, as ShowDoc), authors and managers delete. The
 * list reloads when the page's room reports a comment added or deleted by anyone.
 */
import { App, Button, Empty, Input, List, Pagination, Popconfirm, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import { useLiveEvent } from '../../live/useLiveEvent';
import { unescapeHtml } from '../../markdown/unescape';
import {
  addComment,
  COMMENTS_PER_PAGE,
  deleteComment,
  listComments,
  type CommentPage,
  type PageComment,
} from './api';

/** ShowDoc's limit, in characters. */
const MAX_LENGTH = 500;

function Composer({
  placeholder,
  onSend,
  testId,
}: {
  placeholder: string;
  onSend: (text: string) => Promise<void>;
  testId: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const send = () => {
    if (!text.trim()) return;
    setBusy(true);
    onSend(text.trim())
      .then(() => setText(''))
      .finally(() => setBusy(false));
  };
  return (
    <Space.Compact style={{ width: '100%' }} data-testid={testId}>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={MAX_LENGTH}
        autoSize={{ minRows: 1, maxRows: 6 }}
        placeholder={placeholder}
        aria-label={placeholder}
      />
      <Button type="primary" loading={busy} disabled={!text.trim()} onClick={send}>
        {t('comments.send')}
      </Button>
    </Space.Compact>
  );
}

export function PageComments({ pageId, loggedIn }: { pageId: number; loggedIn: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<CommentPage | null>(null);
  const [replyTo, setReplyTo] = useState(0);

  const load = useCallback(() => {
    listComments(pageId, page).then(setData, () => undefined);
  }, [pageId, page]);

  useEffect(() => setPage(1), [pageId]);
  useEffect(load, [load]);
  useLiveEvent('page:comments', (payload) => {
    if (payload.page_id === pageId) load();
  });

  const failed = (error: unknown) => {
    void message.error(error instanceof ApiRequestError ? error.message : t('comments.failed'));
    throw error;
  };
  const send = (text: string, parentId = 0) =>
    addComment(pageId, text, parentId).then(() => {
      setReplyTo(0);
      load();
    }, failed);
  const remove = (commentId: number) =>
    deleteComment(commentId).then(load, (error: unknown) => failed(error));

  const renderComment = (comment: PageComment, isReply: boolean) => (
    <div
      key={comment.comment_id}
      data-testid="page-comment"
      style={{ padding: '8px 0', marginLeft: isReply ? 24 : 0 }}
    >
      <Space size={8} wrap>
        <Typography.Text strong>{comment.username}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {comment.addtime_text}
        </Typography.Text>
      </Space>
      <Typography.Paragraph style={{ margin: '4px 0', whiteSpace: 'pre-wrap' }}>
        {unescapeHtml(comment.content)}
      </Typography.Paragraph>
      <Space size={0}>
        {!isReply && loggedIn && (
          <Button type="link" size="small" onClick={() => setReplyTo(comment.comment_id)}>
            {t('comments.reply')}
          </Button>
        )}
        {comment.can_delete && (
          <Popconfirm
            title={t('comments.confirmDelete')}
            okText={t('comments.delete')}
            cancelText={t('comments.cancel')}
            onConfirm={() => remove(comment.comment_id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              {t('comments.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      {replyTo === comment.comment_id && (
        <Composer
          placeholder={t('comments.replyPlaceholder', { name: comment.username })}
          onSend={(text) => send(text, comment.comment_id)}
          testId="reply-composer"
        />
      )}
      {comment.replies?.map((reply) => renderComment(reply, true))}
    </div>
  );

  return (
    <section data-testid="page-comments" aria-label={t('comments.title')} style={{ marginTop: 24 }}>
      <Typography.Title level={4}>
        {t('comments.titleWithCount', { count: data?.total ?? 0 })}
      </Typography.Title>
      {loggedIn ? (
        <Composer
          placeholder={t('comments.placeholder')}
          onSend={(text) => send(text)}
          testId="comment-composer"
        />
      ) : (
        <Typography.Text type="secondary">{t('comments.loginToComment')}</Typography.Text>
      )}
      {data && data.comments.length === 0 ? (
        <Empty description={t('comments.none')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <List
          dataSource={data?.comments ?? []}
          renderItem={(comment) => renderComment(comment, false)}
        />
      )}
      {(data?.total ?? 0) > COMMENTS_PER_PAGE && (
        <Pagination
          size="small"
          current={page}
          pageSize={COMMENTS_PER_PAGE}
          total={data?.total ?? 0}
          onChange={setPage}
        />
      )}
    </section>
  );
}
