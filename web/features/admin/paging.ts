/** The back office lists' pagination: ADMIN_PAGE_SIZE rows a page, as the API pages them. */
import type { TablePaginationConfig } from 'antd';
import { ADMIN_PAGE_SIZE } from './api';

export function adminPaging(
  page: number,
  total: number | string,
  onChange: (page: number) => void,
): TablePaginationConfig {
  return {
    current: page,
    pageSize: ADMIN_PAGE_SIZE,
    total: Number(total),
    onChange,
    showSizeChanger: false,
  };
}
