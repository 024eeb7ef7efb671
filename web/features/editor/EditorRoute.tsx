/**
 * `/page/edit/:item_id/:page_id` (spec 001 §2): the editor as its own screen. `page_id` is a page
 * id or a custom page id (after a new page's first save the address carries its page ID); 0 opens
 * a new page, with `?copy_page_id=` a copy of that page and `?cat_id=` a starting catalog. Loads
 * the item (rights and menu) and the page, then hands over to EditorScreen — one per page, so a
 * new page that gets saved starts a fresh, shared session.
 */
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { LazyResult } from '../../components/LazyResult';
import { ScreenLoading } from '../../components/ScreenLoading';
import { unescapeHtml } from '../../markdown/unescape';
import { fetchItemInfo, fetchPage, resolvePage } from '../reader/api';
import { itemAddress, readerPath } from '../reader/paths';
import type { ItemInfo } from '../reader/types';
import { LiveProvider } from '../../live/LiveProvider';
import { EditorScreen, type EditorSession } from './EditorScreen';

const RUNAPI = '3';
const SPREADSHEET = '4';

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; session: EditorSession }
  | { state: 'denied'; item: ItemInfo | null; message: string };

async function load(
  itemParam: string,
  pageParam: string,
  copyId: number,
  catId: number,
  copySuffix: (title: string) => string,
): Promise<Loaded> {
  let item: ItemInfo;
  try {
    item = await fetchItemInfo(itemParam);
  } catch (error) {
    return { state: 'denied', item: null, message: (error as Error).message };
  }
  // A read-only member of an item in suggest mode opens existing pages to suggest changes only.
  const suggestOnly = !item.item_edit && !!item.item_suggest;
  if (!item.item_edit && !(suggestOnly && pageParam && pageParam !== '0'))
    return { state: 'denied', item, message: '' };
  if (item.item_type === RUNAPI || item.item_type === SPREADSHEET)
    return { state: 'denied', item, message: '' };
  const itemId = Number(item.item_id);
  const { pageId, customId } =
    pageParam && pageParam !== '0'
      ? await resolvePage(item.item_id, pageParam).catch(() => ({ pageId: 0, customId: '' }))
      : { pageId: 0, customId: '' };
  if (pageParam && pageParam !== '0' && !pageId) return { state: 'denied', item, message: '' };

  const source = pageId || copyId;
  const page = source ? await fetchPage(source).catch(() => null) : null;
  if (source && !page) return { state: 'denied', item, message: '' };
  const content = page ? unescapeHtml(page.page_content) : '';
  const isCopy = !pageId && !!page;
  return {
    state: 'ready',
    session: {
      item,
      itemId,
      pageId,
      title: page ? (isCopy ? copySuffix(page.page_title) : page.page_title) : '',
      customId: pageId && page ? customId || String(pageId) : '',
      catId: page ? Number(page.cat_id) : catId,
      savedContent: pageId ? content : '',
      savedVersion: pageId && page ? page.addtime : '',
      startContent: content,
      metaMode: pageId ? null : isCopy ? 'copy' : 'new',
      suggestOnly,
    },
  };
}

export default function EditorRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { item_id: itemParam = '', page_id: pageParam = '0' } = useParams();
  const [search] = useSearchParams();
  const copyId = Number(search.get('copy_page_id')) || 0;
  const catId = Number(search.get('cat_id')) || 0;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  // Read when loading, not a reason to load again: a new `t` (catalogue or language arriving)
  // must not throw away an editor session that is already open.
  const copySuffix = useRef((title: string) => t('editor.copyOf', { title }));
  copySuffix.current = (title: string) => t('editor.copyOf', { title });

  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    void load(itemParam, pageParam, copyId, catId, (title) => copySuffix.current(title)).then(
      (result) => current && setLoaded(result),
    );
    return () => {
      current = false;
    };
  }, [itemParam, pageParam, copyId, catId]);

  if (loaded.state === 'loading') return <ScreenLoading />;
  if (loaded.state === 'denied') {
    const back = loaded.item ? readerPath(itemAddress(loaded.item)) : '/item/index';
    return (
      <LazyResult
        status="403"
        title={t('editor.denied.title')}
        subTitle={loaded.message || t('editor.denied.text')}
        extra={
          <Button type="primary" onClick={() => void navigate(back)}>
            {t('editor.denied.back')}
          </Button>
        }
      />
    );
  }
  const { session } = loaded;
  // The live connection brings the page's suggestion pushes (web/features/suggest).
  return (
    <LiveProvider>
      <EditorScreen key={`${session.itemId}/${session.pageId}`} session={session} />
    </LiveProvider>
  );
}
