/**
 * Keeps a fabric canvas and the whiteboard's shared Y.Doc in step (realtime/whiteboardProtocol.ts):
 * what this user draws, moves or deletes is written to the object's Y.Map entry under LOCAL_ORIGIN,
 * and every other change (a co-drawer's, an undo, a restore) is drawn from the entry.
 *
 * Undo is per user: a Y.UndoManager tracks LOCAL_ORIGIN only, so it takes back this user's own
 * changes and never a co-drawer's.
 */
import { type Canvas, type FabricObject, type StaticCanvas, util } from 'fabric';
import * as Y from 'yjs';
import {
  boardMeta,
  boardObjects,
  orderedEntries,
  setBoard,
  type Board,
  type BoardEntry,
  type BoardObject,
} from '../../../realtime/whiteboardProtocol';

/** The transaction origin of this user's own drawing (what their undo manager takes back). */
export const LOCAL_ORIGIN = { source: 'whiteboard-local' };

/** Properties fabric leaves out of toObject that the board keeps. */
const EXTRA_PROPS = ['id', 'sticky'];

type WithId = FabricObject & { id?: string };

export function objectId(object: FabricObject): string | undefined {
  return (object as WithId).id;
}

export function newObjectId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function serialize(object: FabricObject): BoardObject {
  return object.toObject(EXTRA_PROPS) as BoardObject;
}

/** Fabric objects from board JSON (ShowDoc's 4.x type names included). */
export async function enliven(objects: BoardObject[]): Promise<FabricObject[]> {
  return util.enlivenObjects<FabricObject>(
    objects.map((object) => ({ ...object, type: fabricType(object.type) })),
  );
}

/** fabric 4's lower-case type names as fabric 7 registers them. */
function fabricType(type: unknown): string {
  const name = typeof type === 'string' ? type : 'Rect';
  const known: Record<string, string> = {
    rect: 'Rect',
    circle: 'Circle',
    ellipse: 'Ellipse',
    triangle: 'Triangle',
    line: 'Line',
    path: 'Path',
    polyline: 'Polyline',
    polygon: 'Polygon',
    group: 'Group',
    image: 'Image',
    textbox: 'Textbox',
    text: 'FabricText',
    'i-text': 'IText',
  };
  return known[name] ?? name;
}

/** Draws a whole board onto a canvas (diff images, the share view, the first paint). */
export async function drawBoard(canvas: StaticCanvas, board: Board): Promise<void> {
  const objects = await enliven(board.objects);
  canvas.clear();
  if (typeof board.background === 'string') canvas.backgroundColor = board.background;
  for (const object of objects) canvas.add(object);
  canvas.requestRenderAll();
}

export interface BoardBinding {
  undo: Y.UndoManager;
  /** Writes these canvas objects' current state (added or changed by this user). */
  write(objects: FabricObject[]): void;
  /** Removes these canvas objects from the board. */
  remove(objects: FabricObject[]): void;
  /** Replaces the whole board (JSON import), as one undoable change. */
  replace(board: Board): void;
  destroy(): void;
}

export function bindBoard(
  canvas: Canvas,
  doc: Y.Doc,
  options: { readOnly: () => boolean; onRemoteChange?: () => void },
): BoardBinding {
  const map = boardObjects(doc);
  const byId = new Map<string, FabricObject>();
  let destroyed = false;
  // Remote changes are drawn in order, one batch after the other (enlivening is async).
  let queue = Promise.resolve();

  const maxZ = () => Math.max(0, ...[...map.values()].map((entry) => entry.z));

  function restack() {
    orderedEntries(map).forEach(([id], index) => {
      const object = byId.get(id);
      if (object && canvas.getObjects().indexOf(object) !== index)
        canvas.moveObjectTo(object, index);
    });
  }

  async function draw(ids: Set<string>) {
    const wanted = [...ids].map((id) => [id, map.get(id)] as const);
    const present = wanted.filter((pair): pair is readonly [string, BoardEntry] => !!pair[1]);
    const made = await enliven(present.map(([, entry]) => entry.object));
    if (destroyed) return;
    const active = canvas.getActiveObjects();
    for (const [id] of wanted) {
      const old = byId.get(id);
      if (!old) continue;
      if (active.includes(old)) canvas.discardActiveObject();
      canvas.remove(old);
      byId.delete(id);
    }
    present.forEach(([id], index) => {
      const object = made[index] as WithId;
      object.id = id;
      if (options.readOnly()) object.set({ selectable: false, evented: false });
      byId.set(id, object);
      canvas.add(object);
    });
    restack();
    canvas.requestRenderAll();
    options.onRemoteChange?.();
  }

  const observer = (event: Y.YMapEvent<BoardEntry>, transaction: Y.Transaction) => {
    if (transaction.origin === LOCAL_ORIGIN) return;
    const ids = new Set(event.keysChanged);
    queue = queue.then(() => draw(ids)).catch(() => {});
  };
  map.observe(observer);
  queue = queue.then(() => draw(new Set(map.keys())));
  const meta = boardMeta(doc);
  const applyBackground = () => {
    const background = meta.get('background');
    canvas.backgroundColor = typeof background === 'string' ? background : '#ffffff';
    canvas.requestRenderAll();
  };
  meta.observe(applyBackground);
  applyBackground();

  const undo = new Y.UndoManager([map, meta], {
    trackedOrigins: new Set([LOCAL_ORIGIN]),
    captureTimeout: 300,
  });

  return {
    undo,
    write(objects) {
      if (options.readOnly()) return;
      let z = maxZ();
      doc.transact(() => {
        for (const object of objects) {
          let id = objectId(object);
          if (!id) {
            id = newObjectId();
            (object as WithId).id = id;
          }
          byId.set(id, object);
          const current = map.get(id);
          map.set(id, { z: current ? current.z : ++z, object: { ...serialize(object), id } });
        }
      }, LOCAL_ORIGIN);
    },
    remove(objects) {
      if (options.readOnly()) return;
      doc.transact(() => {
        for (const object of objects) {
          const id = objectId(object);
          if (!id) continue;
          byId.delete(id);
          map.delete(id);
        }
      }, LOCAL_ORIGIN);
    },
    replace(board) {
      if (options.readOnly()) return;
      // Applied as a remote change would be: the canvas redraws from the entries.
      const ids = new Set([...map.keys()]);
      doc.transact(() => setBoard(doc, board), LOCAL_ORIGIN);
      for (const key of map.keys()) ids.add(key);
      queue = queue.then(() => draw(ids)).catch(() => {});
    },
    destroy() {
      destroyed = true;
      map.unobserve(observer);
      meta.unobserve(applyBackground);
      undo.destroy();
    },
  };
}
