/** A contract diff as a list, breaking changes first (the server sorts them so). */
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContractChange } from '../../api/apiContracts';

export function ContractChanges({ changes }: { changes: ContractChange[] }) {
  const { t } = useTranslation();
  return (
    <ul style={{ paddingLeft: 18, margin: 0 }} data-testid="contract-changes">
      {changes.map((c, i) => (
        <li key={i} data-breaking={c.breaking ? 'yes' : 'no'}>
          {c.breaking ? (
            <Tag color="red">{t('apiContracts.breaking')}</Tag>
          ) : (
            <Tag>{t('apiContracts.nonBreaking')}</Tag>
          )}
          <Typography.Text code>{c.endpoint}</Typography.Text>{' '}
          {t(`apiContracts.kinds.${c.kind}`, { defaultValue: c.text })}
          {(c.field || c.where) && (
            <Typography.Text type="secondary"> · {c.field || c.where}</Typography.Text>
          )}
          {c.removed?.length ? (
            <Typography.Text type="secondary"> (−{c.removed.join(', ')})</Typography.Text>
          ) : null}
          {c.added?.length ? (
            <Typography.Text type="secondary"> (+{c.added.join(', ')})</Typography.Text>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
