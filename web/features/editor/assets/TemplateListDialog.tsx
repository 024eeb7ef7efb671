/**
 * "More templates" (spec 001 §2): the user's own templates and those shared to this item, each
 * inserted at the cursor; the user's own can also be shared to items and deleted.
 */
import { DeleteOutlined, ImportOutlined, ShareAltOutlined } from '@ant-design/icons';
import { App, Button, List, Modal, Popconfirm, Tabs, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogin } from '../../../auth/useLogin';
import type { EditorHandle } from '../contract';
import {
  deleteTemplate,
  itemTemplates,
  myTemplates,
  type ItemTemplate,
  type MyTemplate,
} from './api';
import { templateBlock } from './markdown';
import { ShareTemplateDialog } from './ShareTemplateDialog';

/** What a row of either tab shows and acts on. */
interface TemplateRow {
  key: string;
  templateId: number;
  title: string;
  content: string;
  addtime: string;
  /** Who made it (project tab only: the user's own list needs no name). */
  author?: string;
  /** The user's own template as `getMyList` has it (share and delete), else undefined. */
  own?: MyTemplate;
}

export function TemplateListDialog({
  itemId,
  editor,
  onClose,
}: {
  itemId: number;
  editor: EditorHandle;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const uid = useLogin()?.uid;
  const [mine, setMine] = useState<MyTemplate[] | null>(null);
  const [shared, setShared] = useState<ItemTemplate[] | null>(null);
  const [sharing, setSharing] = useState<MyTemplate | null>(null);

  const load = useCallback(() => {
    myTemplates().then(setMine, () => setMine([]));
    itemTemplates(itemId).then(setShared, () => setShared([]));
  }, [itemId]);
  useEffect(load, [load]);

  const myRows = useMemo<TemplateRow[]>(
    () =>
      (mine ?? []).map((tpl) => ({
        key: tpl.id,
        templateId: Number(tpl.id),
        title: tpl.template_title,
        content: tpl.template_content,
        addtime: tpl.addtime,
        own: tpl,
      })),
    [mine],
  );
  const itemRows = useMemo<TemplateRow[]>(
    () =>
      (shared ?? []).map((tpl) => ({
        key: tpl.id,
        templateId: Number(tpl.template_id),
        title: tpl.template_title,
        content: tpl.template_content,
        addtime: tpl.addtime,
        author: tpl.username,
        own:
          String(tpl.uid) === uid
            ? mine?.find((own) => Number(own.id) === Number(tpl.template_id))
            : undefined,
      })),
    [shared, mine, uid],
  );

  function insert(row: TemplateRow) {
    if (!editor.isWritable()) {
      message.warning(t('editAssets.readOnly'));
      return;
    }
    editor.insert(templateBlock(row.content));
    onClose();
    editor.focus();
  }

  async function remove(row: TemplateRow) {
    try {
      await deleteTemplate(row.templateId);
      message.success(t('common.deleted'));
      load();
    } catch {
      // alerted
    }
  }

  const renderRow = (row: TemplateRow) => (
    <List.Item
      data-testid="template-row"
      data-title={row.title}
      actions={[
        <Button
          key="insert"
          size="small"
          type="primary"
          icon={<ImportOutlined />}
          data-testid="template-insert"
          onClick={() => insert(row)}
        >
          {t('editAssets.templates.insert')}
        </Button>,
        ...(row.own
          ? [
              <Button
                key="share"
                size="small"
                icon={<ShareAltOutlined />}
                data-testid="template-share"
                onClick={() => setSharing(row.own ?? null)}
              >
                {t('editAssets.templates.share')}
              </Button>,
              <Popconfirm
                key="delete"
                title={t('editAssets.templates.deleteConfirm', { title: row.title })}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove(row)}
              >
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  data-testid="template-delete"
                  aria-label={t('editAssets.templates.delete', { title: row.title })}
                />
              </Popconfirm>,
            ]
          : []),
      ]}
    >
      <List.Item.Meta
        title={row.title}
        description={
          <>
            {row.author ? `${row.author} · ` : ''}
            {row.addtime}
            {!row.author && row.own && row.own.share_item_count > 0 ? (
              <Tag style={{ marginInlineStart: 8 }} data-testid="template-share-count">
                {t('editAssets.templates.sharedCount', { count: row.own.share_item_count })}
              </Tag>
            ) : null}
          </>
        }
      />
    </List.Item>
  );

  const list = (rows: TemplateRow[], loading: boolean, empty: string) => (
    <List<TemplateRow>
      loading={loading}
      dataSource={rows}
      rowKey="key"
      locale={{ emptyText: empty }}
      renderItem={renderRow}
      style={{ maxHeight: 480, overflow: 'auto' }}
    />
  );

  return (
    <Modal
      open
      title={t('editAssets.templates.listTitle')}
      footer={null}
      onCancel={onClose}
      width={720}
      destroyOnHidden
    >
      <div data-testid="templates-dialog">
        <Tabs
          items={[
            {
              key: 'mine',
              label: <span data-testid="templates-tab-mine">{t('editAssets.templates.mine')}</span>,
              children: list(myRows, mine === null, t('editAssets.templates.mineEmpty')),
            },
            {
              key: 'item',
              label: <span data-testid="templates-tab-item">{t('editAssets.templates.item')}</span>,
              children: list(itemRows, shared === null, t('editAssets.templates.itemEmpty')),
            },
          ]}
        />
      </div>
      {sharing && (
        <ShareTemplateDialog template={sharing} onClose={() => setSharing(null)} onShared={load} />
      )}
    </Modal>
  );
}
