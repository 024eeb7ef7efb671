/**
 * The public square on the landing page (ShowDoc's `publicSquare/*`): shown only when the admin
 * switched it on, it lists the site's open items (no visit password), newest change first, with
 * a search by name and description or by page content. The server decides what is public.
 */
import { Card, Empty, Input, List, Pagination, Segmented, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { request } from '../../api/request';

interface SquareItem {
  item_id: number;
  item_name: string;
  item_description: string;
  item_type: string;
  last_update_time: string;
  item_domain: string;
}

const PAGE_SIZE = 12;
const TYPE_KEYS: Record<string, string> = {
  '1': 'regular',
  '2': 'single',
  '3': 'runapi',
  '4': 'sheet',
  '5': 'whiteboard',
  '6': 'kanban',
};

/** Rendered by the landing page once `publicSquare/checkEnabled` said the square is on. */
export default function PublicSquare() {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [searchType, setSearchType] = useState<'title' | 'content'>('title');
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<{ total: number; items: SquareItem[] } | null>(null);

  useEffect(() => {
    let current = true;
    request<{ total: number; items: SquareItem[] }>(
      'publicSquare/getPublicItems',
      { page, count: PAGE_SIZE, keyword, search_type: searchType },
      { alert: false },
    ).then(
      (answer) => current && setResult(answer),
      () => current && setResult({ total: 0, items: [] }),
    );
    return () => {
      current = false;
    };
  }, [page, keyword, searchType]);

  return (
    <Card data-testid="public-square" style={{ marginTop: 32 }} title={t('publicSquare.title')}>
      <Typography.Paragraph type="secondary">{t('publicSquare.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          data-testid="public-square-search"
          placeholder={t('publicSquare.searchPlaceholder')}
          onSearch={(value) => {
            setPage(1);
            setKeyword(value.trim());
          }}
          style={{ width: 280 }}
        />
        <Segmented
          value={searchType}
          onChange={(value) => {
            setPage(1);
            setSearchType(value as 'title' | 'content');
          }}
          options={[
            { value: 'title', label: t('publicSquare.byTitle') },
            { value: 'content', label: t('publicSquare.byContent') },
          ]}
        />
      </Space>
      {result && !result.items.length ? (
        <Empty description={t('publicSquare.empty')} />
      ) : (
        <List
          loading={!result}
          dataSource={result?.items ?? []}
          renderItem={(item) => (
            <List.Item key={item.item_id} data-testid="public-square-item">
              <List.Item.Meta
                title={
                  <Space>
                    <Link to={`/${encodeURIComponent(item.item_domain)}`}>{item.item_name}</Link>
                    {TYPE_KEYS[item.item_type] && (
                      <Tag>{t(`publicSquare.type.${TYPE_KEYS[item.item_type]}`)}</Tag>
                    )}
                  </Space>
                }
                description={
                  <>
                    {item.item_description && <div>{item.item_description}</div>}
                    <Typography.Text type="secondary">
                      {t('publicSquare.updated', { time: item.last_update_time })}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
      {!!result && result.total > PAGE_SIZE && (
        <Pagination
          current={page}
          pageSize={PAGE_SIZE}
          total={result.total}
          onChange={setPage}
          showSizeChanger={false}
        />
      )}
    </Card>
  );
}
