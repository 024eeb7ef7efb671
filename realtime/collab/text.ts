/**
 * Changing a page document's text from the server side.
 *
 * Two rules keep connected editors and other processes sane:
 * - Minimal diff: the Y.Text is edited only where the new text differs (fast-diff), so cursors
 *   and concurrent typing elsewhere in the page survive.
 * - Deterministic authorship: the change is made under a Yjs client id derived from the exact
 *   document state and the target text. Two processes that make the same change to the same state
 *   (both initialise a page nobody opened yet, both reconcile the same stale draft) produce
 *   byte-identical Yjs items, which merge into one instead of doubling the text. Different states
 *   give different ids, so two different changes never share item ids.
 */
import { createHash } from 'node:crypto';
import diff from 'fast-diff';
import * as Y from 'yjs';
import { PAGE_TEXT } from '../collabProtocol';

export function pageText(doc: Y.Doc): Y.Text {
  return doc.getText(PAGE_TEXT);
}

/** Edits `text` into `target` with the fewest insertions and deletions fast-diff finds. */
export function applyMinimalDiff(text: Y.Text, target: string): boolean {
  const current = text.toString();
  if (current === target) return false;
  const doc = text.doc;
  const edit = () => {
    let index = 0;
    for (const [op, chunk] of diff(current, target)) {
      if (op === diff.EQUAL) index += chunk.length;
      else if (op === diff.DELETE) text.delete(index, chunk.length);
      else {
        text.insert(index, chunk);
        index += chunk.length;
      }
    }
  };
  if (doc) doc.transact(edit);
  else edit();
  return true;
}

/** A Yjs client id (uint32, never 0) that only this state and target produce. */
function derivedClientId(state: Uint8Array, target: string, purpose: string): number {
  const digest = createHash('sha256')
    .update(purpose)
    .update(state)
    .update('\0')
    .update(target)
    .digest();
  return digest.readUInt32BE(0) || 1;
}

/**
 * Brings the document's page text to `target` as a minimal diff made under a derived client id
 * (see the file comment), applied to `doc` with `origin`. Returns whether anything changed.
 */
export function setPageTextDeterministically(
  doc: Y.Doc,
  target: string,
  purpose: string,
  origin: unknown,
): boolean {
  if (pageText(doc).toString() === target) return false;
  const state = Y.encodeStateAsUpdate(doc);
  const scratch = new Y.Doc({ gc: doc.gc });
  scratch.clientID = derivedClientId(state, target, purpose);
  Y.applyUpdate(scratch, state);
  applyMinimalDiff(pageText(scratch), target);
  const change = Y.encodeStateAsUpdate(scratch, Y.encodeStateVector(doc));
  scratch.destroy();
  Y.applyUpdate(doc, change, origin);
  return true;
}

/**
 * Three-way merge for a server-side change made against `base` (the saved text) while the live
 * document holds `live` (the saved text plus whatever editors typed since): the change's hunks
 * (fast-diff base→target) are replayed on `live` at the positions the editors' edits moved them
 * to. Text the editors typed is kept; text the change deletes is deleted only where it still is
 * (an editor may have deleted it already); an insertion lands after anything an editor typed at
 * the same spot. Returns the text `live` becomes.
 */
export function rebaseOnLive(base: string, target: string, live: string): string {
  if (live === base) return target;
  if (target === base) return live;
  // Where each base character sits in `live` (-1: an editor deleted it), and where the gap
  // before base character i sits (after any text an editor inserted there).
  const at = new Int32Array(base.length);
  const gap = new Int32Array(base.length + 1);
  let b = 0;
  let l = 0;
  for (const [op, chunk] of diff(base, live)) {
    if (op === diff.INSERT) {
      l += chunk.length;
      continue;
    }
    for (let k = 0; k < chunk.length; k++, b++) {
      gap[b] = l;
      at[b] = op === diff.EQUAL ? l++ : -1;
    }
  }
  gap[base.length] = live.length;

  const deleted = new Uint8Array(live.length);
  const inserts = new Map<number, string>();
  b = 0;
  for (const [op, chunk] of diff(base, target)) {
    if (op === diff.EQUAL) b += chunk.length;
    else if (op === diff.DELETE) {
      for (let k = 0; k < chunk.length; k++, b++) if (at[b] >= 0) deleted[at[b]] = 1;
    } else {
      const spot = gap[b];
      inserts.set(spot, (inserts.get(spot) ?? '') + chunk);
    }
  }

  let out = '';
  let run = 0; // start of the current run of kept characters
  for (let i = 0; i <= live.length; i++) {
    const insert = inserts.get(i);
    if (insert !== undefined || i === live.length || deleted[i]) {
      out += live.slice(run, i);
      if (insert !== undefined) out += insert;
      run = deleted[i] ? i + 1 : i;
    }
  }
  return out;
}
