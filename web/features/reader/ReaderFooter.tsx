/**
 * The reader's footer (spec 001 §2): privacy, terms and licence. A self-hosted site has no
 * pages of its own for them, so each opens a short note.
 */
import { useTranslation } from 'react-i18next';
import { Fragment } from 'react';
import { useAppFeedback } from '../../components/AppFeedback';
import './reader.css';

const NOTES = ['privacy', 'terms', 'licence'] as const;

export function ReaderFooter() {
  const { t } = useTranslation();
  const { modal } = useAppFeedback();
  return (
    <footer
      style={{ marginTop: 48, paddingTop: 16, borderTop: '1px solid #eceef2', textAlign: 'center' }}
      data-testid="reader-footer"
    >
      <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: 8 }}>
        {NOTES.map((note) => (
          <Fragment key={note}>
            <button
              type="button"
              className="q-link q-secondary"
              onClick={() =>
                modal.info({
                  title: t(`reader.footer.${note}`),
                  content: t(`reader.footer.${note}Text`),
                })
              }
            >
              {t(`reader.footer.${note}`)}
            </button>
            <span className="q-secondary">·</span>
          </Fragment>
        ))}
        <span className="q-secondary">{t('footer.poweredBy')}</span>
      </div>
    </footer>
  );
}
