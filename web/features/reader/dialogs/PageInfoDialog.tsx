/** Facts about the open page: ids, author, times and its address. */
import { Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageInfo } from '../types';

export default function PageInfoDialog({
  page,
  address,
  onClose,
}: {
  page: PageInfo;
  address: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal open title={t('reader.pageInfo.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('reader.pageInfo.pageTitle')}>
          {page.page_title}
        </Descriptions.Item>
        <Descriptions.Item label={t('reader.pageInfo.pageId')}>{page.page_id}</Descriptions.Item>
        {page.page_custom_id && page.page_custom_id !== page.page_id && (
          <Descriptions.Item label={t('reader.pageInfo.customId')}>
            {page.page_custom_id}
          </Descriptions.Item>
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
