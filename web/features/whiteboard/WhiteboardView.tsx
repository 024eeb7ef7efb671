/**
 * Whiteboard items (type 5), their own lazy chunk with fabric.js: the reader loads it only for
 * such items. Signed-in members draw together on the page's shared document (useBoardDoc,
 * boardBinding): pen, rectangles, ellipses, arrows, text, sticky notes and pictures (uploaded as
 * the page's images); select, move and resize; undo and redo of one's own changes; zoom (wheel,
 * buttons) and pan; PNG, SVG and JSON export and JSON import; co-drawers' pointers. The board is
 * saved as a page version (ShowDoc's fabric JSON) on Save, Ctrl/Cmd+S and a while after drawing.
 * Readers watch live; a visitor without a login sees the saved board.
 */
import { App, Button, Space, Tag, Tooltip } from 'antd';
import {
  ActiveSelection,
  Canvas,
  FabricImage,
  type FabricObject,
  IText,
  PencilBrush,
  Point,
  type TPointerEventInfo,
} from 'fabric';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollabAwarenessState } from '../../../realtime/collabProtocol';
import {
  boardOfContent,
  boardOfDoc,
  type BoardPointer,
} from '../../../realtime/whiteboardProtocol';
import { uploadBare } from '../../api/request';
import { unescapeHtml } from '../../markdown/unescape';
import type { ItemInfo, PageInfo } from '../reader/types';
import { useWindowHeight } from '../reader/useWindowHeight';
import { bindBoard, drawBoard, LOCAL_ORIGIN, type BoardBinding } from './boardBinding';
import { download, PLACING_TOOLS, placeObject, withWholeBoard, type Tool } from './tools';
import { useBoardDoc } from './useBoardDoc';

const HistoryDialog = lazy(() => import('../reader/dialogs/HistoryDialog'));

const VIEW_OFFSET = 110;
const AUTOSAVE_MS = 10_000;
const TOOLS: Tool[] = ['select', 'pan', 'pen', 'rect', 'ellipse', 'arrow', 'text', 'sticky'];

export interface WhiteboardViewProps {
  item: ItemInfo;
  page: PageInfo;
  loggedIn: boolean;
  actions: ReactNode;
}

interface Peer {
  clientId: number;
  name: string;
  color: string;
  pointer: BoardPointer | null;
}

export default function WhiteboardView({ item, page, loggedIn, actions }: WhiteboardViewProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const pageId = Number(page.page_id);
  const height = useWindowHeight() - VIEW_OFFSET;
  const board = useBoardDoc(pageId, loggedIn);
  const live = loggedIn && board.status !== 'refused';
  const readOnly = !live || board.readOnly || board.status !== 'ready';
  const readOnlyRef = useRef(readOnly);
  readOnlyRef.current = readOnly;

  const host = useRef<HTMLDivElement>(null);
  const canvasEl = useRef<HTMLCanvasElement>(null);
  const [canvas, setCanvas] = useState<Canvas | null>(null);
  const binding = useRef<BoardBinding | null>(null);
  const [tool, setTool] = useState<Tool>('select');
  const toolRef = useRef(tool);
  toolRef.current = tool;
  const [color, setColor] = useState('#1f2d3d');
  const style = useRef({ color, width: 3 });
  style.current.color = color;
  const [zoom, setZoom] = useState(1);
  const [objectIds, setObjectIds] = useState<string[]>([]);
  const [history, setHistory] = useState({ undo: 0, redo: 0 });
  const [peers, setPeers] = useState<Peer[]>([]);
  const [dirty, setDirty] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const closeHistory = useCallback(() => setHistoryOpen(false), []);
  const fileInput = useRef<HTMLInputElement>(null);
  const jsonInput = useRef<HTMLInputElement>(null);

  const countObjects = useCallback(() => {
    if (!canvas) return;
    setObjectIds(canvas.getObjects().map((o) => (o as FabricObject & { id?: string }).id ?? ''));
  }, [canvas]);

  // The canvas itself, sized to the view.
  useEffect(() => {
    const element = canvasEl.current;
    if (!element) return;
    const made = new Canvas(element, {
      width: host.current?.clientWidth ?? 800,
      height: Math.max(300, height),
      preserveObjectStacking: true,
    });
    made.freeDrawingBrush = new PencilBrush(made);
    setCanvas(made);
    return () => {
      setCanvas(null);
      void made.dispose();
    };
    // Made once: the size follows in the effect below.
  }, []);
  useEffect(() => {
    canvas?.setDimensions({
      width: host.current?.clientWidth ?? 800,
      height: Math.max(300, height),
    });
  }, [canvas, height]);

  // Saved content for visitors (and the first paint before the live document is there).
  useEffect(() => {
    if (!canvas || live) return;
    void drawBoard(canvas, boardOfContent(unescapeHtml(page.page_content))).then(() => {
      canvas.forEachObject((o) => o.set({ selectable: false, evented: false }));
      countObjects();
    });
  }, [canvas, live, page.page_content, countObjects]);

  // The live document.
  useEffect(() => {
    if (!canvas || !board.doc || board.status !== 'ready') return;
    const bound = bindBoard(canvas, board.doc, {
      readOnly: () => readOnlyRef.current,
      onRemoteChange: countObjects,
    });
    binding.current = bound;
    const onStack = () =>
      setHistory({ undo: bound.undo.undoStack.length, redo: bound.undo.redoStack.length });
    bound.undo.on('stack-item-added', onStack);
    bound.undo.on('stack-item-popped', onStack);
    // Only this user's own drawing (and undo) asks for a save: co-drawers save theirs.
    const onLocal = (_update: Uint8Array, origin: unknown) => {
      if (origin === LOCAL_ORIGIN || origin === bound.undo) setDirty(true);
    };
    board.doc.on('update', onLocal);
    return () => {
      board.doc?.off('update', onLocal);
      bound.destroy();
      binding.current = null;
    };
  }, [canvas, board.doc, board.status, countObjects]);

  // Drawing and editing.
  useEffect(() => {
    if (!canvas) return;
    canvas.isDrawingMode = !readOnly && tool === 'pen';
    canvas.selection = !readOnly && tool === 'select';
    canvas.defaultCursor = tool === 'pan' ? 'grab' : 'default';
    canvas.forEachObject((o) => o.set({ selectable: !readOnly, evented: !readOnly }));
    if (canvas.freeDrawingBrush) {
      canvas.freeDrawingBrush.color = color;
      canvas.freeDrawingBrush.width = style.current.width;
    }
  }, [canvas, tool, readOnly, color]);

  useEffect(() => {
    if (!canvas) return;
    const write = (objects: FabricObject[]) => {
      binding.current?.write(objects);
      countObjects();
    };
    let panFrom: Point | null = null;
    const onDown = (event: TPointerEventInfo) => {
      const current = toolRef.current;
      if (current === 'pan') {
        panFrom = new Point(event.viewportPoint.x, event.viewportPoint.y);
        return;
      }
      if (readOnlyRef.current || !PLACING_TOOLS.includes(current)) return;
      const object = placeObject(current, event.scenePoint.x, event.scenePoint.y, style.current, {
        text: t('whiteboard.defaultText'),
        sticky: t('whiteboard.defaultSticky'),
      });
      if (!object) return;
      canvas.add(object);
      write([object]);
      canvas.setActiveObject(object);
      setTool('select');
      if (object instanceof IText) {
        object.enterEditing();
        object.selectAll();
      }
    };
    const onMove = (event: TPointerEventInfo) => {
      if (panFrom) {
        const at = new Point(event.viewportPoint.x, event.viewportPoint.y);
        canvas.relativePan(at.subtract(panFrom));
        panFrom = at;
      }
      board.provider?.setAwarenessField('pointer', {
        x: Math.round(event.scenePoint.x),
        y: Math.round(event.scenePoint.y),
      });
    };
    const onUp = () => {
      panFrom = null;
    };
    const onWheel = (event: TPointerEventInfo<WheelEvent>) => {
      const next = Math.min(8, Math.max(0.1, canvas.getZoom() * 0.999 ** event.e.deltaY));
      canvas.zoomToPoint(new Point(event.viewportPoint.x, event.viewportPoint.y), next);
      setZoom(next);
      event.e.preventDefault();
    };
    const onPath = ({ path }: { path: FabricObject }) => write([path]);
    const onModified = ({ target }: { target: FabricObject }) => {
      if (target instanceof ActiveSelection) {
        // Members of a selection hold coordinates relative to it: store them as they are alone.
        const members = target.getObjects();
        canvas.discardActiveObject();
        write(members);
        canvas.setActiveObject(new ActiveSelection(members, { canvas }));
      } else write([target]);
    };
    const onTextDone = ({ target }: { target: FabricObject }) => write([target]);
    const disposers = [
      canvas.on('mouse:down', onDown),
      canvas.on('mouse:move', onMove),
      canvas.on('mouse:up', onUp),
      canvas.on('mouse:wheel', onWheel),
      canvas.on('path:created', onPath),
      canvas.on('object:modified', onModified),
      canvas.on('text:editing:exited', onTextDone),
      // Co-drawers see the words as they are typed, not only when editing ends.
      canvas.on('text:changed', onTextDone),
    ];
    return () => disposers.forEach((dispose) => dispose());
  }, [canvas, board.provider, countObjects, t]);

  // Co-drawers' pointers (awareness).
  useEffect(() => {
    const awareness = board.provider?.awareness;
    if (!awareness) return;
    const read = () => {
      const list: Peer[] = [];
      awareness.getStates().forEach((raw, clientId) => {
        if (clientId === awareness.clientID) return;
        const state = raw as CollabAwarenessState & { pointer?: BoardPointer };
        if (!state.user) return;
        list.push({
          clientId,
          name: state.user.name,
          color: state.user.color ?? '#888',
          pointer: state.pointer ?? null,
        });
      });
      setPeers(list);
    };
    awareness.on('change', read);
    read();
    return () => awareness.off('change', read);
  }, [board.provider]);

  const save = useCallback(() => {
    if (!board.provider || readOnlyRef.current) return;
    board.provider.sendStateless(
      JSON.stringify({
        type: 'save',
        requestId: `wb-${Date.now()}`,
        title: page.page_title || item.item_name,
        catId: Number(page.cat_id) || 0,
        customId: '',
      }),
    );
    setDirty(false);
  }, [board.provider, page.page_title, page.cat_id, item.item_name]);

  useEffect(() => {
    if (board.lastSave?.type === 'save-failed') void message.error(board.lastSave.message);
  }, [board.lastSave, message]);

  useEffect(() => {
    if (!dirty || readOnly) return;
    const timer = setTimeout(save, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [dirty, readOnly, save]);

  const undo = () => binding.current?.undo.undo();
  const redo = () => binding.current?.undo.redo();
  const removeSelected = useCallback(() => {
    if (!canvas || readOnlyRef.current) return;
    const selected = canvas.getActiveObjects();
    if (!selected.length) return;
    canvas.discardActiveObject();
    selected.forEach((o) => canvas.remove(o));
    binding.current?.remove(selected);
    countObjects();
  }, [canvas, countObjects]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const editingText =
        canvas?.getActiveObject() instanceof IText && (canvas.getActiveObject() as IText).isEditing;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && event.key.toLowerCase() === 's') {
        event.preventDefault();
        save();
      } else if (editingText) return;
      else if (mod && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
      } else if (mod && event.key.toLowerCase() === 'y') {
        event.preventDefault();
        redo();
      } else if ((event.key === 'Delete' || event.key === 'Backspace') && !mod) {
        const target = event.target as HTMLElement | null;
        if (target && /^(INPUT|TEXTAREA)$/.test(target.tagName)) return;
        removeSelected();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canvas, save, removeSelected]);

  const zoomBy = (factor: number) => {
    if (!canvas) return;
    const next = Math.min(8, Math.max(0.1, canvas.getZoom() * factor));
    canvas.zoomToPoint(new Point(canvas.getWidth() / 2, canvas.getHeight() / 2), next);
    setZoom(next);
  };

  const addImage = async (file: File) => {
    if (!canvas) return;
    const answer = await uploadBare<{ success?: number | string; url?: string; message?: string }>(
      'page/uploadImg',
      file,
      file.name || 'image.png',
      { item_id: item.item_id, page_id: pageId },
      { alert: false },
    ).catch((error: Error) => ({ success: 0, message: error.message, url: '' }));
    if (Number(answer.success) !== 1 || !answer.url) {
      void message.error(answer.message || t('whiteboard.uploadFailed'));
      return;
    }
    const image = await FabricImage.fromURL(answer.url, { crossOrigin: 'anonymous' });
    const center = canvas.getVpCenter();
    image.scaleToWidth(Math.min(400, image.width || 400));
    image.set({
      left: center.x - image.getScaledWidth() / 2,
      top: center.y - image.getScaledHeight() / 2,
    });
    canvas.add(image);
    binding.current?.write([image]);
    countObjects();
  };

  const importJson = async (file: File) => {
    const parsed = boardOfContent(await file.text());
    binding.current?.replace(parsed);
  };

  const exportAs = (format: 'png' | 'svg' | 'json') => {
    if (!canvas) return;
    const name = page.page_title || item.item_name || 'whiteboard';
    if (format === 'json') {
      const json = board.doc
        ? JSON.stringify(boardOfDoc(board.doc))
        : unescapeHtml(page.page_content);
      download(`${name}.json`, new Blob([json], { type: 'application/json' }));
    } else if (format === 'svg')
      download(
        `${name}.svg`,
        new Blob([withWholeBoard(canvas, () => canvas.toSVG())], { type: 'image/svg+xml' }),
      );
    else
      download(
        `${name}.png`,
        withWholeBoard(canvas, () => canvas.toDataURL({ format: 'png', multiplier: 1 })),
      );
  };

  const vpt = canvas?.viewportTransform ?? [1, 0, 0, 1, 0, 0];
  return (
    <div
      data-testid="whiteboard"
      data-object-ids={objectIds.join(',')}
      data-readonly={readOnly ? '1' : '0'}
    >
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 8,
          alignItems: 'center',
          padding: '8px 12px',
          borderBottom: '1px solid #eef0f3',
        }}
      >
        <strong style={{ marginRight: 8 }}>{item.item_name}</strong>
        {!readOnly && (
          <Space.Compact>
            {TOOLS.map((name) => (
              <Button
                key={name}
                data-testid={`wb-tool-${name}`}
                type={tool === name ? 'primary' : 'default'}
                onClick={() => setTool(name)}
              >
                {t(`whiteboard.tool.${name}`)}
              </Button>
            ))}
            <Button data-testid="wb-tool-image" onClick={() => fileInput.current?.click()}>
              {t('whiteboard.tool.image')}
            </Button>
          </Space.Compact>
        )}
        {!readOnly && (
          // The browser's own colour input: antd's picker would bring its collapse and colour
          // modules into the reader's chunk (antd's shared modules import parts of them).
          <input
            type="color"
            aria-label={t('whiteboard.color')}
            data-testid="wb-color"
            value={color}
            onChange={(event) => setColor(event.target.value)}
            style={{
              width: 32,
              height: 24,
              padding: 0,
              border: '1px solid #d9d9d9',
              borderRadius: 4,
            }}
          />
        )}
        {!readOnly && (
          <Space.Compact>
            <Button data-testid="wb-undo" disabled={!history.undo} onClick={undo}>
              {t('whiteboard.undo')}
            </Button>
            <Button data-testid="wb-redo" disabled={!history.redo} onClick={redo}>
              {t('whiteboard.redo')}
            </Button>
            <Button data-testid="wb-delete" onClick={removeSelected}>
              {t('whiteboard.delete')}
            </Button>
          </Space.Compact>
        )}
        <Space.Compact>
          <Button onClick={() => zoomBy(1 / 1.2)}>−</Button>
          <Button
            data-testid="wb-zoom"
            onClick={() => {
              canvas?.setViewportTransform([1, 0, 0, 1, 0, 0]);
              setZoom(1);
            }}
          >
            {Math.round(zoom * 100)}%
          </Button>
          <Button onClick={() => zoomBy(1.2)}>+</Button>
        </Space.Compact>
        <Space.Compact>
          <Button onClick={() => exportAs('png')}>PNG</Button>
          <Button onClick={() => exportAs('svg')}>SVG</Button>
          <Button data-testid="wb-export-json" onClick={() => exportAs('json')}>
            JSON
          </Button>
          {!readOnly && (
            <Button onClick={() => jsonInput.current?.click()}>{t('whiteboard.importJson')}</Button>
          )}
        </Space.Compact>
        {!readOnly && (
          <Button data-testid="wb-save" type={dirty ? 'primary' : 'default'} onClick={save}>
            {t('whiteboard.save')}
          </Button>
        )}
        {loggedIn && (
          <Button data-testid="wb-history" onClick={() => setHistoryOpen(true)}>
            {t('reader.history.title')}
          </Button>
        )}
        {readOnly && <Tag data-testid="wb-readonly">{t('whiteboard.readOnly')}</Tag>}
        {live && !board.online && <Tag color="orange">{t('whiteboard.offline')}</Tag>}
        {peers.map((peer) => (
          <Tooltip key={peer.clientId} title={peer.name}>
            <Tag color={peer.color} data-testid="wb-peer">
              {peer.name}
            </Tag>
          </Tooltip>
        ))}
        <span style={{ marginLeft: 'auto' }}>{actions}</span>
      </div>
      <div ref={host} style={{ position: 'relative', overflow: 'hidden', background: '#f7f8fa' }}>
        <canvas ref={canvasEl} data-testid="wb-canvas" />
        {peers
          .filter((p) => p.pointer)
          .map((peer) => (
            <div
              key={peer.clientId}
              data-testid="wb-pointer"
              style={{
                position: 'absolute',
                pointerEvents: 'none',
                left: vpt[0] * peer.pointer!.x + vpt[4],
                top: vpt[3] * peer.pointer!.y + vpt[5],
                color: peer.color,
                fontSize: 12,
                whiteSpace: 'nowrap',
              }}
            >
              ▲ {peer.name}
            </div>
          ))}
      </div>
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void addImage(f);
        }}
      />
      <input
        ref={jsonInput}
        type="file"
        accept="application/json,.json"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void importJson(f);
        }}
      />
      {historyOpen && (
        <Suspense fallback={null}>
          <HistoryDialog
            pageId={pageId}
            onClose={closeHistory}
            extraActions={
              readOnly
                ? undefined
                : (row) => (
                    <Button
                      type="link"
                      size="small"
                      data-testid={`wb-restore-${row.page_history_id}`}
                      onClick={() => {
                        // Restored as this user's change (undoable), then saved as a new version.
                        binding.current?.replace(boardOfContent(unescapeHtml(row.page_content)));
                        setHistoryOpen(false);
                        setDirty(true);
                        void message.success(t('whiteboard.restored'));
                      }}
                    >
                      {t('editTools.history.restore')}
                    </Button>
                  )
            }
          />
        </Suspense>
      )}
    </div>
  );
}
