/**
 * The content of a whiteboard item's page (type 5), as ShowDoc's whiteboard writes it: the JSON of
 * a fabric.js canvas (`canvas.toJSON()`) with the canvas size beside it —
 * `{"__canvasSize": {width, height}, "version": "4.6.0", "objects": [ …fabric objects… ],
 * "background"?: …}`. Quire's whiteboard writes the same, each object carrying an `id` as well
 * (its key in the shared live document; fabric keeps unknown properties, so ShowDoc reads it).
 *
 * The search index reads only what people wrote on the board (text objects' `text`, nested in
 * groups too), not the geometry: `searchableText` is that hook.
 */

export interface WhiteboardObject {
  type?: string;
  id?: string;
  text?: string;
  objects?: WhiteboardObject[];
  [key: string]: unknown;
}

export interface WhiteboardContent {
  __canvasSize?: { width: number; height: number };
  version?: string;
  objects: WhiteboardObject[];
  background?: unknown;
  [key: string]: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The board in a page content, or null when the content is not a fabric canvas's JSON. */
export function parseWhiteboard(content: string): WhiteboardContent | null {
  const text = content.trim();
  if (!text.startsWith('{') || !text.includes('"objects"')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(parsed) || !Array.isArray(parsed.objects)) return null;
  // fabric always writes its version: without it this is some other JSON with an `objects` list.
  if (typeof parsed.version !== 'string' && !isObject(parsed.__canvasSize)) return null;
  return {
    ...parsed,
    objects: parsed.objects.filter(isObject) as WhiteboardObject[],
  };
}

/** An empty board (a new whiteboard item's page starts empty, as ShowDoc's does). */
export function emptyWhiteboard(): WhiteboardContent {
  return { version: '7.4.0', objects: [] };
}

/** The texts written on the board, in drawing order (groups' members included). */
export function whiteboardTexts(board: WhiteboardContent): string[] {
  const out: string[] = [];
  const visit = (objects: WhiteboardObject[]) => {
    for (const object of objects) {
      if (typeof object.text === 'string' && object.text.trim()) out.push(object.text);
      if (Array.isArray(object.objects)) visit(object.objects.filter(isObject));
    }
  };
  visit(board.objects);
  return out;
}

/**
 * What a keyword search matches in a page's content: a whiteboard's texts (one per line), any
 * other page's content as it is.
 */
export function searchableText(content: string): string {
  const board = parseWhiteboard(content);
  return board ? whiteboardTexts(board).join('\n') : content;
}
