/**
 * "Changed in v1.4 — breaking": the page's latest API contract change (models/contracts), above
 * the page text, with its changes on demand. Pages without a mark show nothing.
 */
import { Alert, Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contractMark, type ContractMark as Mark } from '../../api/apiContracts';
import { ContractChanges } from '../transfer/ContractChanges';

export function ContractMark({ pageId, version }: { pageId: number; version: string }) {
  const { t } = useTranslation();
  const [mark, setMark] = useState<Mark | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    setMark(null);
    contractMark(pageId).then(
      (answer) => live && setMark(answer.mark),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // A new version of the page may carry a new mark.
  }, [pageId, version]);
  if (!mark) return null;
  const label = mark.version.replace(/^v/i, '');
  return (
    <Alert
      data-testid="contract-mark"
      data-breaking={mark.breaking ? 'yes' : 'no'}
      type={mark.breaking ? 'error' : 'info'}
      showIcon
      style={{ marginBottom: 12 }}
      message={
        mark.breaking
          ? t('apiContracts.markBreaking', { version: label })
          : t('apiContracts.markChanged', { version: label })
      }
      action={
        <Button size="small" type="link" onClick={() => setOpen((o) => !o)}>
          {open ? t('apiContracts.hideChanges') : t('apiContracts.showChanges')}
        </Button>
      }
      description={open ? <ContractChanges changes={mark.changes} /> : undefined}
    />
  );
}
