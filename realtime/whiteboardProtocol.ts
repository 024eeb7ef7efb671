/**
 * The contract between the whiteboard screen (web/features/whiteboard, fabric.js) and the
 * Hocuspocus server for whiteboard items (type 5). Yjs and plain data only: the web imports this
 * file, the server too (realtime/collab/whiteboard.ts).
 *
 * One Yjs document per whiteboard page, named `whiteboard.<page_id>` (collabProtocol.ts
 * `whiteboardDocumentName`), opened, authorised and saved like a page document: editors write,
 * readers (read-only members, share links' visitors) watch live. In it:
 * - `objects`: a Y.Map from object id to `{ z, object }`, `object` being that fabric object's JSON
 *   (`toObject()` with its `id`), `z` its stacking order. Each object is one key, so two people
 *   drawing at once both keep their strokes, and moving an object rewrites only that key.
 * - `meta`: a Y.Map with the canvas's `version`, `__canvasSize` and `background` (ShowDoc's fields).
 *
 * What is saved as the page version is ShowDoc's format (models/pages/whiteboardContent.ts):
 * `{__canvasSize?, version, objects: [...in z order], background?}` — `boardOfDoc` builds it.
 */
import type * as Y from 'yjs';

export const WHITEBOARD_OBJECTS = 'objects';
export const WHITEBOARD_META = 'meta';

/** A fabric object's JSON (whatever fabric's toObject gives) plus our `id`. */
export interface BoardObject {
  id?: string;
  type?: string;
  [key: string]: unknown;
}

export interface BoardEntry {
  /** Stacking order: larger is drawn later (on top). Ties broken by id. */
  z: number;
  object: BoardObject;
}

export interface Board {
  __canvasSize?: { width: number; height: number };
  version?: string;
  objects: BoardObject[];
  background?: unknown;
}

const META_KEYS = ['__canvasSize', 'version', 'background'] as const;

export function boardObjects(doc: Y.Doc): Y.Map<BoardEntry> {
  return doc.getMap<BoardEntry>(WHITEBOARD_OBJECTS);
}

export function boardMeta(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap<unknown>(WHITEBOARD_META);
}

/** Entries in drawing order. */
export function orderedEntries(map: Y.Map<BoardEntry>): [string, BoardEntry][] {
  return [...map.entries()].sort(([a, x], [b, y]) => x.z - y.z || (a < b ? -1 : a > b ? 1 : 0));
}

/** The board the document holds, in ShowDoc's format (what is saved as the page version). */
export function boardOfDoc(doc: Y.Doc): Board {
  const meta = boardMeta(doc);
  const board: Board = { objects: [] };
  for (const key of META_KEYS) {
    const value = meta.get(key);
    if (value !== undefined) (board as unknown as Record<string, unknown>)[key] = value;
  }
  board.version ??= '7.4.0';
  board.objects = orderedEntries(boardObjects(doc)).map(([id, entry]) => ({
    ...entry.object,
    id,
  }));
  return board;
}

/** The id an object of a board has, or gets from its place (ShowDoc's objects carry none). */
export function objectIdAt(object: BoardObject, index: number): string {
  return typeof object.id === 'string' && object.id ? object.id : `o${index}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Makes the document hold `board`: keys that differ are set, keys no longer on the board deleted,
 * the others left alone (so a co-drawer's untouched objects keep their Yjs items). Call inside a
 * transaction.
 */
export function setBoard(doc: Y.Doc, board: Board): void {
  const map = boardObjects(doc);
  const meta = boardMeta(doc);
  const keep = new Set<string>();
  board.objects.forEach((object, index) => {
    const id = objectIdAt(object, index);
    keep.add(id);
    const entry: BoardEntry = { z: index, object: { ...object, id } };
    const current = map.get(id);
    if (!current || !sameJson(current, entry)) map.set(id, entry);
  });
  for (const id of [...map.keys()]) if (!keep.has(id)) map.delete(id);
  for (const key of META_KEYS) {
    const value = (board as unknown as Record<string, unknown>)[key];
    if (value === undefined) {
      if (meta.has(key)) meta.delete(key);
    } else if (!sameJson(meta.get(key), value)) meta.set(key, value);
  }
}

/** The board of a page's content ('' and anything unreadable: an empty board). */
export function boardOfContent(content: string): Board {
  try {
    const parsed = JSON.parse(content) as Partial<Board> | null;
    if (parsed && typeof parsed === 'object' && Array.isArray(parsed.objects))
      return {
        ...parsed,
        objects: parsed.objects.filter(
          (o): o is BoardObject => typeof o === 'object' && o !== null && !Array.isArray(o),
        ),
      };
  } catch {
    // not JSON: an empty board
  }
  return { objects: [] };
}

/** A whiteboard awareness state's pointer, in canvas coordinates. */
export interface BoardPointer {
  x: number;
  y: number;
}
