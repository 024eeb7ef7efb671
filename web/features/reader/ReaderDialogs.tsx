/**
 * Renders the open reader dialog, each loaded on first use. The workspace's own dialogs are
 * reused for what the item list offers too (members, recycle bin, base info, transfer, archive,
 * delete, notices, user centre); after a transfer, archive or delete the reader goes back to the
 * item list, as spec 002 §4 asks.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ItemListEntry } from '../../api/types';
import type { ReaderDialog } from './dialogs';
import { itemAddress, readerPath } from './paths';
import type { ItemInfo, PageInfo } from './types';

const ShareDialog = lazy(() => import('../share/ShareDialog'));
const NoticeModal = lazy(() => import('../notices/NoticeModal'));
const UserInfoModal = lazy(() => import('../user/UserInfoModal'));
const MemberManagerModal = lazy(() => import('../members/MemberManagerModal'));
const RecycleModal = lazy(() => import('../items/RecycleModal'));
const UpdateItemModal = lazy(() => import('../items/UpdateItemModal'));
const ConfirmedActionModal = lazy(() => import('../items/ConfirmedActionModal'));
const ChangeLogDialog = lazy(() => import('./dialogs/ChangeLogDialog'));
const ExportDialog = lazy(() => import('./dialogs/ExportDialog'));
const ImportDialog = lazy(() => import('./dialogs/ImportDialog'));
const HistoryDialog = lazy(() => import('./dialogs/HistoryDialog'));
const PageInfoDialog = lazy(() => import('./dialogs/PageInfoDialog'));
const AttachmentsDialog = lazy(() => import('./dialogs/AttachmentsDialog'));
const AskPanel = lazy(() => import('../askDocs/AskPanel'));
const OfflineDialog = lazy(() => import('../offline/OfflineDialog'));

/** The item as the workspace dialogs take it (they read its id and name). */
function asListEntry(item: ItemInfo): ItemListEntry {
  return {
    item_id: item.item_id,
    uid: '',
    item_name: item.item_name,
    item_domain: item.item_domain,
    item_type: item.item_type,
    item_description: '',
    last_update_time: '',
    creator: 0,
    manage: item.item_manage ? 1 : 0,
    is_private: 0,
    is_star: 0,
  };
}

export function ReaderDialogs({
  dialog,
  item,
  page,
  onClose,
  onItemChanged,
  onShareKeyChange,
}: {
  dialog: ReaderDialog | null;
  item: ItemInfo;
  page: PageInfo | null;
  onClose: () => void;
  /** Something about the item (menu, info) may have changed. */
  onItemChanged: () => void;
  onShareKeyChange: (key: string) => void;
}) {
  const navigate = useNavigate();
  if (!dialog) return null;
  const itemId = Number(item.item_id);
  const toList = () => void navigate('/item/index');
  let content: ReactNode = null;
  switch (dialog) {
    case 'share':
      content = (
        <ShareDialog
          target={{ item, page, canEdit: item.item_edit }}
          onClose={onClose}
          onShareKeyChange={onShareKeyChange}
        />
      );
      break;
    case 'ask':
      content = <AskPanel item={item} onClose={onClose} />;
      break;
    case 'offline':
      content = <OfflineDialog item={item} onClose={onClose} />;
      break;
    case 'notices':
      content = <NoticeModal onClose={onClose} />;
      break;
    case 'user':
      content = <UserInfoModal onClose={onClose} />;
      break;
    case 'members':
      content = <MemberManagerModal item={asListEntry(item)} onClose={onClose} />;
      break;
    case 'recycle':
      content = (
        <RecycleModal
          itemId={itemId}
          onClose={() => {
            onClose();
            onItemChanged(); // a recovered page is back in the menu
          }}
        />
      );
      break;
    case 'update':
      content = (
        <UpdateItemModal itemId={itemId} groups={[]} onClose={onClose} onSaved={onItemChanged} />
      );
      break;
    case 'attorn':
    case 'archive':
    case 'delete':
      content = (
        <ConfirmedActionModal
          action={dialog}
          item={asListEntry(item)}
          onClose={onClose}
          onDone={toList}
        />
      );
      break;
    case 'changeLog':
      content = <ChangeLogDialog itemId={itemId} onClose={onClose} />;
      break;
    case 'export':
      content = (
        <ExportDialog itemId={itemId} itemType={Number(item.item_type)} onClose={onClose} />
      );
      break;
    case 'import':
      content = <ImportDialog itemId={itemId} onClose={onClose} onImported={onItemChanged} />;
      break;
    case 'history':
      if (page) content = <HistoryDialog pageId={Number(page.page_id)} onClose={onClose} />;
      break;
    case 'pageInfo':
      if (page)
        content = (
          <PageInfoDialog
            page={page}
            addressOf={(pageParam) =>
              window.location.origin + readerPath(itemAddress(item), pageParam)
            }
            onClose={onClose}
          />
        );
      break;
    case 'attachments':
      if (page) content = <AttachmentsDialog pageId={Number(page.page_id)} onClose={onClose} />;
      break;
  }
  return <Suspense fallback={null}>{content}</Suspense>;
}
