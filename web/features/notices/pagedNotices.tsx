/** What the announcement and reminder lists share: one page of rows at a time, and its pager. */
import { Pagination } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_PAGE_SIZE } from './constants';

/** Rows of the current page (null while loading; an error shows as no rows) and the total. */
export function usePagedNotices<T>(
  fetchPage: (page: number, size: number) => Promise<{ list: T[]; total: number }>,
) {
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<T[] | null>(null);
  const [total, setTotal] = useState(0);
  useEffect(() => {
    setRows(null);
    fetchPage(page, NOTICE_PAGE_SIZE).then(
      (data) => {
        setRows(data.list);
        setTotal(data.total);
      },
      () => setRows([]),
    );
  }, [fetchPage, page]);
  return { page, setPage, rows, total };
}

export function NoticePager({
  page,
  total,
  onChange,
}: {
  page: number;
  total: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Pagination
      style={{ marginTop: 12 }}
      size="small"
      current={page}
      pageSize={NOTICE_PAGE_SIZE}
      total={total}
      onChange={onChange}
      showTotal={(count) => t('common.total', { count })}
      hideOnSinglePage
    />
  );
}
