/**
 * The reader header's Ask button, in its own chunk with its icon: only items whose assistant is on
 * fetch it, so every other reader's first load stays as light as before.
 */
import { CommentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HeaderIcon } from '../reader/HeaderIcon';

export default function AskButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <HeaderIcon
      label={t('askDocs.ask')}
      icon={<CommentOutlined />}
      onClick={onClick}
      testId="ask"
    />
  );
}
