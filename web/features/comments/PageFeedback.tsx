/** "Was this page helpful?" with the two counts; voting the same way again takes it back. */
import { DislikeOutlined, LikeOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedbackStat, submitFeedback, type FeedbackStat } from './api';

const HELPFUL = 1;
const UNHELPFUL = 2;

export function PageFeedback({ pageId }: { pageId: number }) {
  const { t } = useTranslation();
  const [stat, setStat] = useState<FeedbackStat | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    setStat(null);
    feedbackStat(pageId).then(
      (s) => live && setStat(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [pageId]);

  const vote = (type: number) => {
    setBusy(true);
    submitFeedback(pageId, type)
      .then(setStat, () => undefined)
      .finally(() => setBusy(false));
  };

  if (!stat) return null;
  return (
    <Space data-testid="page-feedback" wrap style={{ margin: '24px 0 8px' }}>
      <Typography.Text>{t('comments.feedback.question')}</Typography.Text>
      <Button
        icon={<LikeOutlined />}
        type={stat.user_feedback === HELPFUL ? 'primary' : 'default'}
        aria-pressed={stat.user_feedback === HELPFUL}
        loading={busy}
        onClick={() => vote(HELPFUL)}
        data-testid="feedback-helpful"
      >
        {t('comments.feedback.helpful', { count: stat.helpful_count })}
      </Button>
      <Button
        icon={<DislikeOutlined />}
        type={stat.user_feedback === UNHELPFUL ? 'primary' : 'default'}
        aria-pressed={stat.user_feedback === UNHELPFUL}
        loading={busy}
        onClick={() => vote(UNHELPFUL)}
        data-testid="feedback-unhelpful"
      >
        {t('comments.feedback.unhelpful', { count: stat.unhelpful_count })}
      </Button>
    </Space>
  );
}
