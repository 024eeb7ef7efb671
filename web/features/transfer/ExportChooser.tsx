/**
 * What to export and in which format (spec 001 §7, spec 002 `/item/export/{item_id}`): the whole
 * item, or one catalog — and for Word and PDF optionally one page of it. RunApi items have no
 * Markdown export. Files are downloaded in the page (downloadExport), and a refusal is shown here.
 */
import {
  ApiOutlined,
  FileMarkdownOutlined,
  FilePdfOutlined,
  FileWordOutlined,
} from '@ant-design/icons';
import { Alert, Button, Radio, Select, Space, TreeSelect, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/request';
import { catalogGroups } from '../../api/members';
import { downloadExport, type ExportKind } from './api';
import type { CatalogGroup } from '../../api/types';

interface TreeNode {
  value: number;
  title: string;
  children: TreeNode[];
}

const toTree = (groups: CatalogGroup[]): TreeNode[] =>
  groups.map((g) => ({
    value: Number(g.cat_id),
    title: g.cat_name,
    children: toTree(g.sub ?? []),
  }));

export function ExportChooser({ itemId, itemType }: { itemId: number; itemType: number }) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<'item' | 'catalog'>('item');
  const [catalogs, setCatalogs] = useState<TreeNode[]>([]);
  const [catId, setCatId] = useState<number | undefined>();
  const [pages, setPages] = useState<{ page_id: string; page_title: string }[]>([]);
  const [pageId, setPageId] = useState<number | undefined>();
  const [busy, setBusy] = useState<'' | ExportKind>('');
  const [error, setError] = useState('');

  useEffect(() => {
    if (scope !== 'catalog') return;
    let live = true;
    void catalogGroups(itemId).then((groups) => live && setCatalogs(toTree(groups)));
    return () => {
      live = false;
    };
  }, [scope, itemId]);

  useEffect(() => {
    setPageId(undefined);
    setPages([]);
    if (!catId) return;
    let live = true;
    void request<{ page_id: string; page_title: string }[]>('catalog/getPagesBycat', {
      item_id: itemId,
      cat_id: catId,
    }).then((rows) => live && setPages(rows));
    return () => {
      live = false;
    };
  }, [catId, itemId]);

  const catalogMissing = scope === 'catalog' && !catId;
  async function run(kind: ExportKind) {
    setBusy(kind);
    setError('');
    try {
      await downloadExport(kind, {
        itemId,
        catId: scope === 'catalog' ? catId : undefined,
        pageId: scope === 'catalog' ? pageId : undefined,
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      setError(kind === 'pdf' ? t('dataTransfer.pdf.failed', { message }) : message);
    } finally {
      setBusy('');
    }
  }

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('dataTransfer.export.help')}</Typography.Paragraph>
      <Radio.Group value={scope} onChange={(e) => setScope(e.target.value as 'item' | 'catalog')}>
        <Radio value="item">{t('dataTransfer.export.wholeItem')}</Radio>
        <Radio value="catalog">{t('dataTransfer.export.oneCatalog')}</Radio>
      </Radio.Group>
      {scope === 'catalog' && (
        <>
          <TreeSelect
            aria-label={t('dataTransfer.export.catalog')}
            data-testid="export-catalog"
            style={{ width: '100%' }}
            placeholder={t('dataTransfer.export.catalog')}
            treeData={catalogs}
            treeDefaultExpandAll
            value={catId}
            onChange={(value: number) => setCatId(value)}
          />
          <Select
            aria-label={t('dataTransfer.export.page')}
            style={{ width: '100%' }}
            allowClear
            disabled={!catId}
            placeholder={t('dataTransfer.export.allPages')}
            value={pageId}
            onChange={(value?: number) => setPageId(value)}
            options={pages.map((p) => ({ value: Number(p.page_id), label: p.page_title }))}
          />
        </>
      )}
      <Space>
        <Button
          icon={<FileWordOutlined />}
          loading={busy === 'word'}
          disabled={catalogMissing}
          onClick={() => void run('word')}
        >
          {t('dataTransfer.export.word')}
        </Button>
        <Button
          icon={<FilePdfOutlined />}
          loading={busy === 'pdf'}
          disabled={catalogMissing}
          title={t('dataTransfer.pdf.help')}
          data-testid="export-pdf"
          onClick={() => void run('pdf')}
        >
          {t('dataTransfer.pdf.button')}
        </Button>
        {itemType !== 3 && (
          <Button
            icon={<FileMarkdownOutlined />}
            loading={busy === 'markdown'}
            disabled={catalogMissing || Boolean(pageId)}
            onClick={() => void run('markdown')}
          >
            {t('dataTransfer.export.markdown')}
          </Button>
        )}
        <Button
          icon={<ApiOutlined />}
          loading={busy === 'openapi'}
          disabled={catalogMissing || Boolean(pageId)}
          title={t('dataTransfer.export.openapiHelp')}
          onClick={() => void run('openapi')}
        >
          {t('dataTransfer.export.openapi')}
        </Button>
      </Space>
      {itemType === 3 && (
        <Typography.Text type="secondary">{t('dataTransfer.export.noMarkdown')}</Typography.Text>
      )}
      {error && <Alert type="error" showIcon title={error} />}
    </Space>
  );
}
