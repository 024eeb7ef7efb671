/**
 * Search results of the item list: the user's items whose name matches, then pages from every
 * item they can read (`item/search` without an item: ranked, grouped by item), each with its
 * snippet and the matched words highlighted, then the attachments whose text matched.
 */
import { FileTextOutlined, PaperClipOutlined } from '@ant-design/icons';
import { Empty, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { searchItems } from '../../api/items';
import type { ItemListEntry, SearchAttachment, SearchPage } from '../../api/types';
import { Highlighted } from '../search/Highlighted';
import '../search/search.css';
import { itemPath } from './itemTypes';

const DEBOUNCE_MS = 300;

/** The snippet arrives HTML-escaped once (it is shown as text): decode the entities for display. */
function plain(text: string): string {
  const doc = new DOMParser().parseFromString(text, 'text/html');
  return doc.documentElement.textContent ?? text;
}

export function ItemSearchResults({ keyword, items }: { keyword: string; items: ItemListEntry[] }) {
  const { t } = useTranslation();
  const [pages, setPages] = useState<SearchPage[] | null>(null);
  const [files, setFiles] = useState<SearchAttachment[]>([]);

  useEffect(() => {
    setPages(null);
    setFiles([]);
    let current = true;
    const timer = setTimeout(() => {
      searchItems(keyword.trim()).then(
        (result) => {
          if (!current) return;
          setPages(result.pages ?? []);
          setFiles(result.attachments ?? []);
        },
        () => current && setPages([]),
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [keyword]);

  const needle = keyword.trim().toLowerCase();
  const matchingItems = items.filter((i) => i.item_name.toLowerCase().includes(needle));

  return (
    <section aria-label={t('items.search.results')}>
      {matchingItems.length > 0 && (
        <>
          <Typography.Title level={5}>{t('items.search.items')}</Typography.Title>
          {matchingItems.map((item) => (
            <div key={item.item_id} style={{ padding: '6px 0' }}>
              <Link to={itemPath(item)}>{item.item_name}</Link>
            </div>
          ))}
        </>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('items.search.pages')}
      </Typography.Title>
      {pages === null ? (
        <Spin />
      ) : pages.length === 0 && files.length === 0 ? (
        <Empty description={t('items.search.none')} />
      ) : (
        <>
          {groupByItem(pages).map(({ itemName, itemId, hits }) => (
            <div key={itemId} role="list" aria-label={itemName} data-testid="search-item-group">
              <Typography.Text strong>{itemName}</Typography.Text>
              {hits.map((page) => (
                <div
                  role="listitem"
                  key={page.page_id}
                  style={{
                    background: '#fff',
                    borderRadius: 8,
                    padding: '10px 14px',
                    margin: '6px 0',
                  }}
                >
                  <Link to={`/${page.item_id}/${page.page_id}`}>
                    <FileTextOutlined />{' '}
                    <Highlighted text={page.page_title} ranges={page.title_highlights} />
                  </Link>
                  {page.snippet !== undefined ? (
                    <div className="q-search-snippet" style={{ margin: '4px 0 0' }}>
                      <Highlighted text={page.snippet} ranges={page.highlights} />
                    </div>
                  ) : page.search_content ? (
                    <Typography.Paragraph
                      type="secondary"
                      style={{ margin: '4px 0 0', fontSize: 12 }}
                      ellipsis={{ rows: 2 }}
                    >
                      {plain(page.search_content)}
                    </Typography.Paragraph>
                  ) : null}
                </div>
              ))}
            </div>
          ))}
          {files.length > 0 && (
            <div role="list" aria-label={t('search.attachments')}>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                {t('search.attachments')}
              </Typography.Title>
              {files.map((file) => (
                <div
                  role="listitem"
                  key={file.file_id}
                  style={{
                    background: '#fff',
                    borderRadius: 8,
                    padding: '10px 14px',
                    margin: '6px 0',
                  }}
                >
                  <a href={file.url} target="_blank" rel="noreferrer">
                    <PaperClipOutlined /> {file.display_name}
                  </a>
                  <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
                    {file.page_title
                      ? `${file.item_name} · ${t('search.attachedTo', { page: file.page_title })}`
                      : file.item_name}
                  </Typography.Text>
                  <div className="q-search-snippet" style={{ margin: '4px 0 0' }}>
                    <Highlighted text={file.snippet} ranges={file.highlights} />
                  </div>
                </div>
              ))}
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** Hits of each item together, items in the order of their first (best) hit. */
function groupByItem(pages: SearchPage[]) {
  const groups = new Map<number, { itemId: number; itemName: string; hits: SearchPage[] }>();
  for (const page of pages) {
    let group = groups.get(page.item_id);
    if (!group) {
      group = { itemId: page.item_id, itemName: page.item_name, hits: [] };
      groups.set(page.item_id, group);
    }
    group.hits.push(page);
  }
  return [...groups.values()];
}
