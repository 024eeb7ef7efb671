/**
 * What each whiteboard tool puts on the canvas where the user clicks, and the board's exports.
 * Shapes are drawn outlined in the chosen colour, as ShowDoc's whiteboard draws them; an arrow is
 * one path (shaft and head) so it moves, scales and syncs as one object.
 */
import { Ellipse, type FabricObject, IText, Path, Rect, type StaticCanvas, Textbox } from 'fabric';

export type Tool = 'select' | 'pan' | 'pen' | 'rect' | 'ellipse' | 'arrow' | 'text' | 'sticky';

export const PLACING_TOOLS: Tool[] = ['rect', 'ellipse', 'arrow', 'text', 'sticky'];

export interface Style {
  color: string;
  width: number;
}

export const STICKY_COLOUR = '#fff3a8';

/** The object a placing tool puts at (x, y) in canvas coordinates; null for other tools. */
export function placeObject(
  tool: Tool,
  x: number,
  y: number,
  style: Style,
  texts: { text: string; sticky: string },
): FabricObject | null {
  const stroke = { stroke: style.color, strokeWidth: style.width, fill: 'transparent' };
  switch (tool) {
    case 'rect':
      return new Rect({ left: x, top: y, width: 160, height: 100, ...stroke });
    case 'ellipse':
      return new Ellipse({ left: x, top: y, rx: 80, ry: 50, ...stroke });
    case 'arrow': {
      const length = 160;
      const head = Math.max(10, style.width * 4);
      return new Path(
        `M 0 0 L ${length} 0 M ${length - head} ${-head / 1.5} L ${length} 0 L ${length - head} ${head / 1.5}`,
        {
          left: x,
          top: y,
          stroke: style.color,
          strokeWidth: style.width,
          fill: '',
          strokeLineCap: 'round',
          strokeLineJoin: 'round',
        },
      );
    }
    case 'text':
      return new IText(texts.text, { left: x, top: y, fontSize: 24, fill: style.color });
    case 'sticky': {
      const note = new Textbox(texts.sticky, {
        left: x,
        top: y,
        width: 180,
        fontSize: 18,
        fill: '#3b3b3b',
        backgroundColor: STICKY_COLOUR,
        padding: 12,
      });
      note.set('sticky', true);
      return note;
    }
    default:
      return null;
  }
}

/** Offers a download of `data` under `name`. */
export function download(name: string, data: Blob | string): void {
  const url = typeof data === 'string' ? data : URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  if (typeof data !== 'string') setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Runs `render` with the whole drawing in view (exports show everything, not the viewport). */
export function withWholeBoard<T>(canvas: StaticCanvas, render: () => T): T {
  const saved = canvas.viewportTransform.slice() as typeof canvas.viewportTransform;
  const width = canvas.getWidth();
  const height = canvas.getHeight();
  const objects = canvas.getObjects();
  if (objects.length) {
    // From the canvas origin: two versions' pictures then line up (a moved shape shows moved).
    let left = 0;
    let top = 0;
    let right = -Infinity;
    let bottom = -Infinity;
    for (const object of objects) {
      const box = object.getBoundingRect();
      left = Math.min(left, box.left);
      top = Math.min(top, box.top);
      right = Math.max(right, box.left + box.width);
      bottom = Math.max(bottom, box.top + box.height);
    }
    const margin = 20;
    canvas.setDimensions({ width: right - left + 2 * margin, height: bottom - top + 2 * margin });
    canvas.setViewportTransform([1, 0, 0, 1, margin - left, margin - top]);
  }
  try {
    return render();
  } finally {
    canvas.setDimensions({ width, height });
    canvas.setViewportTransform(saved);
  }
}
