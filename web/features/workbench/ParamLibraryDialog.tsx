/**
 * The item's parameter library (ShowDoc's parameter-description library): its entries with use
 * counts, the ones learnt from saved pages awaiting review (promote or delete), import of
 * `name: description` lines, JSON samples or SQL DDL (previewed, then added) and export as JSON
 * or CSV. Loaded on demand (AssetTools).
 */
import { Button, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  confirmImport,
  deleteEntry,
  exportLibrary,
  type LibraryEntry,
  libraryEntries,
  previewImport,
  promoteEntries,
} from './workbenchApi';

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ParamLibraryDialog({ itemId, onClose }: { itemId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [entries, setEntries] = useState<LibraryEntry[]>([]);
  const [format, setFormat] = useState('kv');
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<{ fresh: unknown[]; duplicated: number } | null>(null);

  const reload = useCallback(async () => {
    setEntries(await libraryEntries(itemId).catch(() => []));
  }, [itemId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <Modal
      open
      width={900}
      title={t('workbench.lib.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="workbench-lib-dialog">
        <Table<LibraryEntry>
          size="small"
          rowKey="id"
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          dataSource={entries}
          locale={{ emptyText: t('workbench.lib.empty') }}
          onRow={(row) => ({ 'data-testid': `workbench-lib-entry-${row.name}` }) as object}
          columns={[
            { title: t('workbench.vars.name'), dataIndex: 'name' },
            { title: t('workbench.lib.type'), dataIndex: 'type', width: 90 },
            { title: t('workbench.lib.description'), dataIndex: 'description' },
            {
              title: t('workbench.lib.status'),
              width: 110,
              render: (_, row) =>
                row.status === 'temp' ? (
                  <Tag color="orange" data-testid="workbench-lib-temp">
                    {t('workbench.lib.temp')}
                  </Tag>
                ) : (
                  <Tag color="green">{t('workbench.lib.permanent')}</Tag>
                ),
            },
            {
              title: t('workbench.lib.usage'),
              width: 110,
              render: (_, row) => t('workbench.lib.used', { count: row.usageCount }),
            },
            {
              title: '',
              width: 160,
              render: (_, row) => (
                <Space size={4}>
                  {row.status === 'temp' && (
                    <Button
                      size="small"
                      data-testid="workbench-lib-promote"
                      onClick={async () => {
                        await promoteEntries([row.id]);
                        await reload();
                      }}
                    >
                      {t('workbench.lib.promote')}
                    </Button>
                  )}
                  <Button
                    size="small"
                    danger
                    onClick={async () => {
                      await deleteEntry(row.id);
                      await reload();
                    }}
                  >
                    {t('workbench.lib.delete')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
        <Typography.Title level={5}>{t('workbench.lib.import')}</Typography.Title>
        <Space style={{ marginBottom: 8 }}>
          <Select
            aria-label={t('workbench.lib.format')}
            value={format}
            style={{ width: 200 }}
            onChange={setFormat}
            options={[
              { value: 'kv', label: t('workbench.lib.formatKv') },
              { value: 'json', label: 'JSON' },
              { value: 'ddl', label: 'SQL DDL' },
            ]}
          />
          <Button
            data-testid="workbench-lib-preview"
            onClick={async () => {
              const answer = await previewImport(itemId, format, text);
              setPreview({ fresh: answer.new, duplicated: answer.duplicated.length });
            }}
          >
            {t('workbench.lib.preview')}
          </Button>
          {preview && (
            <Button
              type="primary"
              data-testid="workbench-lib-confirm"
              disabled={preview.fresh.length === 0}
              onClick={async () => {
                await confirmImport(preview.fresh);
                setPreview(null);
                setText('');
                await reload();
              }}
            >
              {t('workbench.lib.confirm', { count: preview.fresh.length })}
            </Button>
          )}
          {preview && preview.duplicated > 0 && (
            <Typography.Text type="secondary">
              {t('workbench.lib.duplicated', { count: preview.duplicated })}
            </Typography.Text>
          )}
        </Space>
        <Input.TextArea
          data-testid="workbench-lib-text"
          aria-label={t('workbench.lib.import')}
          rows={4}
          placeholder="user_id: ..."
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <Space style={{ marginTop: 12 }}>
          <Button
            onClick={async () =>
              download('parameters.json', await exportLibrary(itemId, 'json'), 'application/json')
            }
          >
            {t('workbench.lib.exportJson')}
          </Button>
          <Button
            onClick={async () =>
              download('parameters.csv', await exportLibrary(itemId, 'csv'), 'text/csv')
            }
          >
            {t('workbench.lib.exportCsv')}
          </Button>
        </Space>
      </div>
    </Modal>
  );
}
