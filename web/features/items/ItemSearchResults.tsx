/**
 * Search results of the item list: the user's items whose name matches, then pages from every
 * item they can read (`item/search` without an item), each with its snippet.
 */
import { FileTextOutlined } from '@ant-design/icons';
import { Empty, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { searchItems } from '../../api/items';
import type { ItemListEntry, SearchPage } from '../../api/types';
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

  useEffect(() => {
    setPages(null);
    let current = true;
    const timer = setTimeout(() => {
      searchItems(keyword.trim()).then(
        (result) => current && setPages(result.pages ?? []),
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
      ) : pages.length === 0 ? (
        <Empty description={t('items.search.none')} />
      ) : (
        <div role="list">
          {pages.map((page) => (
            <div
              role="listitem"
              key={page.page_id}
              style={{ background: '#fff', borderRadius: 8, padding: '10px 14px', marginBottom: 8 }}
            >
              <Link to={`/${page.item_id}/${page.page_id}`}>
                <FileTextOutlined /> {page.page_title}
              </Link>
              <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
                {page.item_name}
              </Typography.Text>
              {page.search_content && (
                <Typography.Paragraph
                  type="secondary"
                  style={{ margin: '4px 0 0', fontSize: 12 }}
                  ellipsis={{ rows: 2 }}
                >
                  {plain(page.search_content)}
                </Typography.Paragraph>
              )}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
