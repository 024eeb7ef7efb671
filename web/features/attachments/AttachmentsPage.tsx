/** `/attachment/index`: the attachment manager as a screen. */
import { useTranslation } from 'react-i18next';
import { ScreenCard } from '../layout/ScreenCard';
import { AttachmentManager } from './AttachmentManager';

export default function AttachmentsPage() {
  const { t } = useTranslation();
  return (
    <ScreenCard title={t('attachments.title')} back="/item/index">
      <AttachmentManager />
    </ScreenCard>
  );
}
