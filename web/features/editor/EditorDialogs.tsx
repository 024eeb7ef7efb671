/**
 * The editor's dialogs (page title and ID, save-and-notify, save as template, the catalog
 * manager, the paste choice). Each loads when first opened (issue #22); EditorScreen owns their
 * state and passes it in.
 */
import { lazy, Suspense, useState } from 'react';
import { OnDemand } from '../../components/OnDemand';
import { fetchItemInfo } from '../reader/api';
import type { ItemInfo } from '../reader/types';
import type { EditorHandle } from './contract';
import type { PageMeta, PageMetaMode } from './PageMetaModal';
import { htmlToMarkdown } from './paste';

const PageMetaModal = lazy(() =>
  import('./PageMetaModal').then((m) => ({ default: m.PageMetaModal })),
);
const NotifySaveModal = lazy(() =>
  import('./NotifySaveModal').then((m) => ({ default: m.NotifySaveModal })),
);
const PasteChoiceModal = lazy(() =>
  import('./PasteChoiceModal').then((m) => ({ default: m.PasteChoiceModal })),
);
const SaveTemplateModal = lazy(() =>
  import('./assets/SaveTemplateModal').then((m) => ({ default: m.SaveTemplateModal })),
);
const CatalogManagerModal = lazy(() =>
  import('../catalog/CatalogManagerModal').then((m) => ({ default: m.CatalogManagerModal })),
);

export type Catalogs = NonNullable<ItemInfo['menu']>['catalogs'] | undefined;

/** The dialogs' open state (and the catalog list the manager may change), owned by the screen. */
export function useEditorDialogs(metaMode: PageMetaMode | null, startCatalogs: Catalogs) {
  const [metaModal, setMetaModal] = useState<{ mode: PageMetaMode; error?: string } | null>(
    metaMode ? { mode: metaMode } : null,
  );
  const [notifyOpen, setNotifyOpen] = useState(false);
  const [templateOpen, setTemplateOpen] = useState(false);
  const [paste, setPaste] = useState<{ html: string; text: string } | null>(null);
  const [managingCatalogs, setManagingCatalogs] = useState(false);
  const [catalogs, setCatalogs] = useState(startCatalogs);
  return {
    metaModal,
    setMetaModal,
    notifyOpen,
    setNotifyOpen,
    templateOpen,
    setTemplateOpen,
    paste,
    setPaste,
    managingCatalogs,
    setManagingCatalogs,
    catalogs,
    setCatalogs,
  };
}

export type EditorDialogState = ReturnType<typeof useEditorDialogs>;

export interface EditorDialogsProps {
  itemId: number;
  pageId: number;
  handleRef: { current: EditorHandle | null };
  meta: PageMeta;
  setMeta(meta: PageMeta): void;
  dialogs: EditorDialogState;
  save(remark?: string): Promise<unknown>;
  leaveNow(): Promise<void>;
}

export function EditorDialogs({ dialogs, ...props }: EditorDialogsProps) {
  const { itemId, pageId, handleRef, meta } = props;
  const { metaModal, paste } = dialogs;
  return (
    <>
      <OnDemand open={!!metaModal}>
        <PageMetaModal
          open={!!metaModal}
          mode={metaModal?.mode ?? 'new'}
          value={meta}
          error={metaModal?.error}
          onSubmit={(value) => {
            props.setMeta(value);
            dialogs.setMetaModal(null);
          }}
          onCancel={() => {
            dialogs.setMetaModal(null);
            // A new page without a title and page ID has nowhere to go.
            if (!pageId && (!meta.title || !meta.customId)) void props.leaveNow();
          }}
        />
      </OnDemand>
      <OnDemand open={dialogs.notifyOpen}>
        <NotifySaveModal
          open={dialogs.notifyOpen}
          onCancel={() => dialogs.setNotifyOpen(false)}
          onSubmit={(remark) => {
            dialogs.setNotifyOpen(false);
            void props.save(remark);
          }}
        />
      </OnDemand>
      <OnDemand open={dialogs.templateOpen}>
        <SaveTemplateModal
          open={dialogs.templateOpen}
          content={dialogs.templateOpen ? (handleRef.current?.getText() ?? '') : ''}
          onClose={() => dialogs.setTemplateOpen(false)}
        />
      </OnDemand>
      {dialogs.managingCatalogs && (
        <Suspense fallback={null}>
          <CatalogManagerModal
            itemId={itemId}
            open
            onClose={() => {
              dialogs.setManagingCatalogs(false);
              // The chooser offers what the manager left (new, renamed, moved catalogs).
              void fetchItemInfo(String(itemId)).then(
                (info) => dialogs.setCatalogs(info.menu?.catalogs),
                () => {},
              );
            }}
          />
        </Suspense>
      )}
      <OnDemand open={!!paste}>
        <PasteChoiceModal
          open={!!paste}
          onCancel={() => dialogs.setPaste(null)}
          onText={() => {
            handleRef.current?.insert(paste!.text);
            dialogs.setPaste(null);
          }}
          onMarkdown={() => {
            const html = paste!.html;
            dialogs.setPaste(null);
            void htmlToMarkdown(html).then((md) => handleRef.current?.insert(md));
          }}
        />
      </OnDemand>
    </>
  );
}
