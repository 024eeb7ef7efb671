/**
 * The reader's footer (spec 001 §2): privacy, terms and licence. A self-hosted site has no
 * pages of its own for them, so each opens a short note.
 */
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppFeedback } from '../../components/AppFeedback';

const NOTES = ['privacy', 'terms', 'licence'] as const;

export function ReaderFooter() {
  const { t } = useTranslation();
  const { modal } = useAppFeedback();
  return (
    <footer
      style={{ marginTop: 48, paddingTop: 16, borderTop: '1px solid #eceef2', textAlign: 'center' }}
      data-testid="reader-footer"
    >
      <Space separator={<Typography.Text type="secondary">·</Typography.Text>} wrap>
        {NOTES.map((note) => (
          <Typography.Link
            key={note}
            type="secondary"
            onClick={() =>
              modal.info({
                title: t(`reader.footer.${note}`),
                content: t(`reader.footer.${note}Text`),
              })
            }
          >
            {t(`reader.footer.${note}`)}
          </Typography.Link>
        ))}
        <Typography.Text type="secondary">{t('footer.poweredBy')}</Typography.Text>
      </Space>
    </footer>
  );
}
