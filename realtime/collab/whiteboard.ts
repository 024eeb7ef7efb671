/**
 * Whiteboard documents on the server side (realtime/whiteboardProtocol.ts is the format): what a
 * live document holds as page content, and changing it to a saved content.
 *
 * A whiteboard's page content is its board's JSON (ShowDoc's format); a document holds it as one
 * Y.Map entry per object. Setting a saved board into a document follows text.ts's rule for
 * Markdown: the change is made under a client id derived from the document state and the target,
 * so processes that make the same change to the same state produce the same Yjs items.
 */
import { createHash } from 'node:crypto';
import * as Y from 'yjs';
import type { CollabDocumentKind } from '../collabProtocol';
import { boardOfContent, boardOfDoc, setBoard } from '../whiteboardProtocol';
import { pageText, setPageTextDeterministically } from './text';

/** What the document holds, as the page content a save would store. */
export function documentContent(kind: CollabDocumentKind, doc: Y.Doc): string {
  return kind === 'whiteboard' ? JSON.stringify(boardOfDoc(doc)) : pageText(doc).toString();
}

function derivedClientId(state: Uint8Array, target: string, purpose: string): number {
  const digest = createHash('sha256')
    .update(`board:${purpose}`)
    .update(state)
    .update('\0')
    .update(target)
    .digest();
  return digest.readUInt32BE(0) || 1;
}

/** Makes the whiteboard document hold the board of `content`; whether anything changed. */
export function setBoardDeterministically(
  doc: Y.Doc,
  content: string,
  purpose: string,
  origin: unknown,
): boolean {
  const target = boardOfContent(content);
  const state = Y.encodeStateAsUpdate(doc);
  const scratch = new Y.Doc({ gc: doc.gc });
  scratch.clientID = derivedClientId(state, content, purpose);
  Y.applyUpdate(scratch, state);
  const before = JSON.stringify(boardOfDoc(scratch));
  scratch.transact(() => setBoard(scratch, target));
  const changed = JSON.stringify(boardOfDoc(scratch)) !== before;
  if (changed) Y.applyUpdate(doc, Y.encodeStateAsUpdate(scratch, Y.encodeStateVector(doc)), origin);
  scratch.destroy();
  return changed;
}

/** Sets a saved content into a document of either kind (see text.ts for Markdown). */
export function setContentDeterministically(
  kind: CollabDocumentKind,
  doc: Y.Doc,
  content: string,
  purpose: string,
  origin: unknown,
): boolean {
  return kind === 'whiteboard'
    ? setBoardDeterministically(doc, content, purpose, origin)
    : setPageTextDeterministically(doc, content, purpose, origin);
}
