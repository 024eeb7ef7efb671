/**
 * Facts about the open page: ids, author, times and its address. The article ID is asked of
 * page/getPageID (page answers carry only ShowDoc's columns); until it answers, the address uses
 * the page id, which resolves to the same page.
 */
import { Descriptions, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchPageCustomId } from '../api';
import type { PageInfo } from '../types';

export default function PageInfoDialog({
  page,
  addressOf,
  onClose,
}: {
  page: PageInfo;
  /** The page's full address for an article ID (or page id). */
  addressOf: (pageParam: string) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [customId, setCustomId] = useState('');
  useEffect(() => {
    let live = true;
    fetchPageCustomId(Number(page.page_id))
      .then((id) => live && setCustomId(id))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [page.page_id]);
  const address = addressOf(customId || page.page_id);
  return (
    <Modal open title={t('reader.pageInfo.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('reader.pageInfo.pageTitle')}>
          {page.page_title}
        </Descriptions.Item>
        <Descriptions.Item label={t('reader.pageInfo.pageId')}>{page.page_id}</Descriptions.Item>
        {customId && customId !== page.page_id && (
          <Descriptions.Item label={t('reader.pageInfo.customId')}>{customId}</Descriptions.Item>
        )}
        <Descriptions.Item label={t('reader.pageInfo.author')}>
          {page.author_username}
        </Descriptions.Item>
        <Descriptions.Item label={t('reader.pageInfo.updated')}>{page.addtime}</Descriptions.Item>
        <Descriptions.Item label={t('reader.pageInfo.created')}>
          {page.page_addtime}
        </Descriptions.Item>
        <Descriptions.Item label={t('reader.pageInfo.address')}>
          <Typography.Text copyable>{address}</Typography.Text>
        </Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
