/** The HTTP test tool's editable name/value lists (query parameters, headers, form fields). */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { KeyValue } from './httpTestRequest';

export function KeyValueRows({
  rows,
  onChange,
  testId,
}: {
  rows: KeyValue[];
  onChange: (rows: KeyValue[]) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const update = (index: number, patch: Partial<KeyValue>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <div data-testid={testId}>
      {rows.map((row, index) => (
        <Space.Compact key={index} block style={{ marginBottom: 6 }}>
          <Checkbox
            style={{ padding: '4px 8px' }}
            checked={row.enabled}
            onChange={(event) => update(index, { enabled: event.target.checked })}
          />
          <Input
            aria-label={t('assistants.http.name')}
            placeholder={t('assistants.http.name')}
            value={row.name}
            onChange={(event) => update(index, { name: event.target.value })}
          />
          <Input
            aria-label={t('assistants.http.value')}
            placeholder={t('assistants.http.value')}
            value={row.value}
            onChange={(event) => update(index, { value: event.target.value })}
          />
          <Button
            icon={<DeleteOutlined />}
            aria-label={t('assistants.http.remove')}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          />
        </Space.Compact>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        onClick={() => onChange([...rows, { name: '', value: '', enabled: true }])}
        data-testid={`${testId}-add`}
      >
        {t('assistants.http.add')}
      </Button>
    </div>
  );
}
