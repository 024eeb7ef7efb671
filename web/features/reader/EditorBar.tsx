/**
 * The bottom bar of the left menu for editors (spec 001 §2): new page, copy page, new catalog,
 * and a menu with recycle bin, page history, sort pages, page info and delete page. Writing
 * happens on the editor and catalog-manager screens; the dialogs that only read (history, info,
 * recycle bin) open here.
 */
import {
  CopyOutlined,
  DeleteOutlined,
  EllipsisOutlined,
  FileAddOutlined,
  FolderAddOutlined,
  HistoryOutlined,
  InfoCircleOutlined,
  OrderedListOutlined,
  RestOutlined,
} from '@ant-design/icons';
import { App, Button, Dropdown, Tooltip, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deletePage } from './api';
import type { ReaderDialog } from './dialogs';
import { catalogManagerPath, editPagePath } from './paths';

export function EditorBar({
  itemId,
  pageId,
  canManage,
  open,
  onDeleted,
}: {
  itemId: string;
  /** The open page (0: none). */
  pageId: number;
  canManage: boolean;
  open: (dialog: ReaderDialog) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();

  function confirmDelete() {
    modal.confirm({
      title: t('reader.deletePageConfirm'),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await deletePage(pageId);
          message.success(t('common.deleted'));
          onDeleted();
        } catch {
          // alerted by the API client
        }
      },
    });
  }

  const more: MenuProps['items'] = [
    ...(canManage
      ? [{ key: 'recycle', icon: <RestOutlined />, label: t('reader.manage.recycle') }]
      : []),
    {
      key: 'history',
      icon: <HistoryOutlined />,
      label: t('reader.history.title'),
      disabled: !pageId,
    },
    { key: 'sort', icon: <OrderedListOutlined />, label: t('reader.sortPages') },
    {
      key: 'pageInfo',
      icon: <InfoCircleOutlined />,
      label: t('reader.pageInfo.title'),
      disabled: !pageId,
    },
    {
      key: 'delete',
      icon: <DeleteOutlined />,
      label: t('reader.deletePage'),
      danger: true,
      disabled: !pageId,
    },
  ];

  const button = (
    label: string,
    icon: ReactNode,
    onClick: () => void,
    testId: string,
    disabled = false,
  ) => (
    <Tooltip title={label}>
      <Button
        type="text"
        icon={icon}
        aria-label={label}
        onClick={onClick}
        disabled={disabled}
        data-testid={testId}
      />
    </Tooltip>
  );

  return (
    <div
      data-testid="editor-bar"
      style={{
        display: 'flex',
        justifyContent: 'space-around',
        borderTop: '1px solid #eceef2',
        paddingTop: 6,
      }}
    >
      {button(
        t('reader.newPage'),
        <FileAddOutlined />,
        () => void navigate(editPagePath(itemId, 0)),
        'new-page',
      )}
      {button(
        t('reader.copyPage'),
        <CopyOutlined />,
        () => void navigate(`${editPagePath(itemId, 0)}?copy_page_id=${pageId}`),
        'copy-page',
        !pageId,
      )}
      {button(
        t('reader.newCatalog'),
        <FolderAddOutlined />,
        () => void navigate(catalogManagerPath(itemId)),
        'new-catalog',
      )}
      <Dropdown
        trigger={['click']}
        menu={{
          items: more,
          onClick: ({ key }) => {
            if (key === 'delete') confirmDelete();
            else if (key === 'sort') void navigate(catalogManagerPath(itemId));
            else open(key as ReaderDialog);
          },
        }}
      >
        <Button
          type="text"
          icon={<EllipsisOutlined />}
          aria-label={t('reader.more')}
          data-testid="editor-more"
        />
      </Dropdown>
    </div>
  );
}
