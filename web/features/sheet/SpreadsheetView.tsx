/**
 * Spreadsheet items (type 4; spec 002 §2, §4, §9), their own lazy chunk: the reader loads it only
 * for such items. Sheets as tabs over one Handsontable grid. Item editors edit under the page
 * lock (useSheetLock), every cell edit is saved (useSheetSession), managers import and export
 * Excel (excel.ts, exceljs loaded on use). Everyone watching sees who holds the lock and each
 * saved cell change as it happens.
 */
import { DownloadOutlined, LockOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Space, Tabs, Tag, Tooltip } from 'antd';
import { useCallback, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { unescapeHtml } from '../../markdown/unescape';
import type { ItemInfo, PageInfo } from '../reader/types';
import { useWindowHeight } from '../reader/useWindowHeight';
import { SheetGrid } from './SheetGrid';
import { autoSaveTipOff, turnAutoSaveTipOff } from './sheetStore';
import { useSheetLock } from './useSheetLock';
import { useSheetSession } from './useSheetSession';

/** Spec 002 §9: the view is the window's height minus 90. */
const VIEW_OFFSET = 90;

export interface SpreadsheetViewProps {
  item: ItemInfo;
  page: PageInfo;
  selfUid: number;
  /** The logged-in user's username ('' for visitors). */
  selfName: string;
  /** Who holds the page's lock (live), or null. */
  lockHolder: string | null;
  /** Header actions of the reader (share, menus). */
  actions: ReactNode;
  reload(): void;
}

export default function SpreadsheetView(props: SpreadsheetViewProps) {
  const { item, page, selfUid, selfName, lockHolder } = props;
  const { t } = useTranslation();
  const { message, modal, notification } = App.useApp();
  const height = useWindowHeight() - VIEW_OFFSET;
  const itemId = Number(item.item_id);
  const pageId = Number(page.page_id);
  const canEdit = !!item.item_edit;
  const lock = useSheetLock(pageId, itemId, canEdit, { holder: lockHolder, self: selfName });
  const tipShown = useRef(false);
  const heldRef = useRef(lock.held);
  heldRef.current = lock.held;
  const { tryEdit } = lock;
  const gate = useCallback(() => {
    if (heldRef.current) return true;
    void tryEdit();
    return false;
  }, [tryEdit]);
  const fileInput = useRef<HTMLInputElement>(null);

  const content = useMemo(() => unescapeHtml(page.page_content), [page.page_content]);
  const session = useSheetSession({
    itemId,
    pageId,
    title: item.item_name,
    content,
    held: lock.held,
    selfUid,
    reload: props.reload,
    onSaved() {
      if (tipShown.current || autoSaveTipOff()) return;
      tipShown.current = true;
      notification.info({
        key: 'sheet-auto-save',
        title: t('sheet.autoSaveTip'),
        actions: (
          <Button
            size="small"
            onClick={() => {
              turnAutoSaveTipOff();
              notification.destroy('sheet-auto-save');
            }}
          >
            {t('sheet.dontRemind')}
          </Button>
        ),
      });
    },
    askRestoreDraft: () =>
      new Promise<boolean>((resolve) =>
        modal.confirm({
          title: t('sheet.draftTitle'),
          content: t('sheet.draftQuestion'),
          okText: t('sheet.restore'),
          cancelText: t('sheet.discard'),
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        }),
      ),
  });

  const exportFile = async () => {
    const { download, writeXlsx } = await import('./excel');
    download(await writeXlsx(session.sheets.current));
  };
  const importFile = async (file: File) => {
    try {
      const { readXlsx } = await import('./excel');
      session.importSheets(await readXlsx(await file.arrayBuffer()));
    } catch {
      void message.error(t('sheet.importFailed'));
    }
  };

  const holder = lock.held ? null : lockHolder;
  const sheet = session.sheets.current[session.active] ?? session.sheets.current[0];
  const conflict = session.conflict;

  return (
    <div data-testid="spreadsheet" style={{ background: '#fff', minHeight: '100vh' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, padding: '8px 16px' }}>
        <h2 style={{ flex: 1, margin: 0, fontSize: 18 }}>{item.item_name}</h2>
        {lock.held && (
          <Tag color="green" data-testid="sheet-editing">
            {t('sheet.youEdit')}
          </Tag>
        )}
        {holder && (
          <Tag color="orange" icon={<LockOutlined />} data-testid="sheet-lock-holder">
            {t('sheet.holder', { name: holder })}
          </Tag>
        )}
        {item.item_manage && (
          <Space>
            <Tooltip title={t('sheet.importHint')}>
              <Button icon={<UploadOutlined />} onClick={() => fileInput.current?.click()}>
                {t('sheet.import')}
              </Button>
            </Tooltip>
            <Button icon={<DownloadOutlined />} onClick={() => void exportFile()}>
              {t('sheet.export')}
            </Button>
            <input
              ref={fileInput}
              type="file"
              data-testid="sheet-import-file"
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              style={{ display: 'none' }}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (!file) return;
                void lock.tryEdit().then((held) => (held ? importFile(file) : undefined));
              }}
            />
          </Space>
        )}
        {props.actions}
      </div>
      {conflict && (
        <Alert
          type="warning"
          showIcon
          data-testid="sheet-conflict"
          style={{ margin: '0 16px 8px' }}
          title={
            'reload' in conflict
              ? t('sheet.conflictWorkbook')
              : t('sheet.conflictCells', { count: conflict.cells.length })
          }
          action={
            <Space>
              <Button size="small" onClick={() => session.settle('mine')}>
                {t('sheet.keepMine')}
              </Button>
              <Button size="small" type="primary" onClick={() => session.settle('theirs')}>
                {t('sheet.takeTheirs')}
              </Button>
            </Space>
          }
        />
      )}
      {session.sheets.current.length > 1 && (
        <Tabs
          size="small"
          style={{ padding: '0 16px' }}
          activeKey={String(session.active)}
          onChange={(key) => session.setActive(Number(key))}
          items={session.sheets.current.map((s, index) => ({ key: String(index), label: s.name }))}
        />
      )}
      <SheetGrid
        key={`${session.version}-${session.active}`}
        sheet={sheet}
        height={Math.max(height, 200)}
        readOnly={!canEdit}
        hotRef={session.hotRef}
        gate={gate}
        onEdited={session.onEdited}
      />
    </div>
  );
}
