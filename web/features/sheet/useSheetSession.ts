/**
 * The workbook being viewed or edited (spec 002 §4): loaded from the page, saved after each cell
 * edit (debounced) and on Ctrl/Cmd+S, kept as a local draft every 30 s while edited, and kept up
 * to date with others' saves cell by cell (the `sheet:changed` push).
 *
 * Cells edited here and not saved yet are "dirty". Another member's save never overwrites a dirty
 * cell silently: such cells become a conflict the user settles (keep mine / take theirs).
 */
import type { HotTableRef } from '@handsontable/react-wrapper';
import type { CellChange } from 'handsontable/base';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SheetChangedPayload } from '../../../realtime/socketEvents';
import { request } from '../../api/request';
import { useLiveEvent } from '../../live/useLiveEvent';
import { REMOTE_SOURCE } from './SheetGrid';
import {
  DRAFT_INTERVAL_MS,
  readSheetDraft,
  removeSheetDraft,
  SAVE_DEBOUNCE_MS,
  writeSheetDraft,
} from './sheetStore';
import { parseWorkbook, serializeWorkbook, type Sheet } from './workbook';

type CellPush = NonNullable<SheetChangedPayload['cells']>[number];
export type Conflict = { cells: CellPush[] } | { reload: true };

const cellKey = (sheet: number, row: number, col: number) => `${sheet}:${row}:${col}`;

export interface SheetSessionInput {
  itemId: number;
  pageId: number;
  title: string;
  /** The page content as loaded (un-escaped). */
  content: string;
  held: boolean;
  selfUid: number;
  /** Fetch the page again (a push that cannot be applied cell by cell). */
  reload(): void;
  onSaved(): void;
  askRestoreDraft(): Promise<boolean>;
}

export function useSheetSession(input: SheetSessionInput) {
  const { itemId, pageId, content, held } = input;
  const cb = useRef(input);
  cb.current = input;
  // Parsed once: a ref's argument would be evaluated (parsed, serialised) on every render.
  const [initial] = useState(() => {
    const parsed = parseWorkbook(content);
    return { sheets: parsed, json: serializeWorkbook(parsed) };
  });
  const sheets = useRef<Sheet[]>(initial.sheets);
  const [version, setVersion] = useState(0);
  const [active, setActive] = useState(0);
  const activeRef = useRef(0);
  activeRef.current = active;
  const hotRef = useRef<HotTableRef | null>(null);
  const dirty = useRef(new Map<string, string>());
  const lastSaved = useRef(initial.json);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const heldRef = useRef(held);
  heldRef.current = held;

  const replace = useCallback((next: Sheet[]) => {
    sheets.current = next;
    setActive((a) => Math.min(a, next.length - 1));
    setVersion((v) => v + 1);
  }, []);

  // A newer content from the server (after a reload): taken when nothing local is unsaved.
  useEffect(() => {
    const next = serializeWorkbook(parseWorkbook(content));
    if (next === lastSaved.current) return;
    if (dirty.current.size) {
      setConflict({ reload: true });
      return;
    }
    lastSaved.current = next;
    replace(parseWorkbook(content));
  }, [content, replace]);

  // The local draft, offered back once when it differs from the saved workbook; removed either way.
  const asked = useRef(false);
  useEffect(() => {
    if (!held || asked.current) return;
    asked.current = true;
    const draft = readSheetDraft(pageId);
    removeSheetDraft(pageId);
    if (draft === null || draft === lastSaved.current) return;
    void cb.current.askRestoreDraft().then((restore) => {
      if (!restore) return;
      const restored = parseWorkbook(draft);
      restored.forEach((sheet, s) =>
        sheet.data.forEach((line, r) =>
          line.forEach((text, c) => {
            if ((sheets.current[s]?.data[r]?.[c] ?? '') !== text)
              dirty.current.set(cellKey(s, r, c), text);
          }),
        ),
      );
      if (restored.length !== sheets.current.length) dirty.current.set('*', '');
      replace(restored);
    });
  }, [held, pageId, replace]);

  useEffect(() => {
    if (!held) return;
    const timer = window.setInterval(() => {
      if (dirty.current.size) writeSheetDraft(pageId, serializeWorkbook(sheets.current));
    }, DRAFT_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [held, pageId]);

  const saving = useRef(false);
  const again = useRef(false);
  const save = useCallback(async () => {
    if (!heldRef.current) return;
    if (saving.current) {
      again.current = true;
      return;
    }
    saving.current = true;
    const sent = new Map(dirty.current);
    const json = serializeWorkbook(sheets.current);
    try {
      await request('page/save', {
        page_id: pageId,
        item_id: itemId,
        page_title: cb.current.title,
        is_urlencode: 1,
        page_content: encodeURIComponent(json),
      });
      lastSaved.current = json;
      for (const [key, text] of sent)
        if (dirty.current.get(key) === text) dirty.current.delete(key);
      removeSheetDraft(pageId);
      cb.current.onSaved();
    } catch {
      // request() alerted; the cells stay dirty and the draft keeps them
    } finally {
      saving.current = false;
      if (again.current) {
        again.current = false;
        void save();
      }
    }
  }, [itemId, pageId]);

  const timer = useRef(0);
  const saveSoon = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void save(), SAVE_DEBOUNCE_MS);
  }, [save]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        window.clearTimeout(timer.current);
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);

  const onEdited = useCallback(
    (changes: CellChange[]) => {
      for (const [row, prop, , value] of changes)
        dirty.current.set(cellKey(activeRef.current, row, Number(prop)), String(value ?? ''));
      saveSoon();
    },
    [saveSoon],
  );

  /** Writes pushed cells into the grids (the active one through Handsontable, so it repaints). */
  const apply = useCallback((cells: CellPush[]) => {
    const visible: Array<[number, number, string]> = [];
    let remount = false;
    for (const { sheet, row, col, text } of cells) {
      const grid = sheets.current[sheet]?.data;
      if (!grid) continue;
      while (grid.length <= row) grid.push(grid[0].map(() => ''));
      if (col >= grid[0].length) {
        for (const line of grid) while (line.length <= col) line.push('');
        remount = true;
      }
      if (sheet === activeRef.current && !remount) visible.push([row, col, text]);
      else grid[row][col] = text;
    }
    const hot = hotRef.current?.hotInstance;
    // With a list of changes, Handsontable takes the source as the second argument.
    if (visible.length && hot && !remount) hot.setDataAtCell(visible, REMOTE_SOURCE);
    else {
      for (const [row, col, text] of visible)
        sheets.current[activeRef.current].data[row][col] = text;
      setVersion((v) => v + 1);
    }
    lastSaved.current = serializeWorkbook(sheets.current);
  }, []);

  useLiveEvent('sheet:changed', (payload) => {
    if (payload.page_id !== pageId) return;
    if (heldRef.current && payload.by_uid === cb.current.selfUid) return;
    if (!payload.cells) {
      if (dirty.current.size) setConflict({ reload: true });
      else cb.current.reload();
      return;
    }
    const mine = payload.cells.filter((c) => {
      const local = dirty.current.get(cellKey(c.sheet, c.row, c.col));
      return local !== undefined && local !== c.text;
    });
    apply(payload.cells.filter((c) => !mine.includes(c)));
    if (mine.length)
      setConflict((old) => ({
        cells: [...(old && 'cells' in old ? old.cells : []), ...mine],
      }));
  });

  /** Settles a conflict: 'theirs' takes the saved cells (or workbook), 'mine' keeps the local ones. */
  const settle = useCallback(
    (choice: 'mine' | 'theirs') => {
      const current = conflict;
      setConflict(null);
      if (!current || choice === 'mine') return;
      if ('reload' in current) {
        // The content on hand, then whatever is newer: a save may have come after it.
        dirty.current.clear();
        const loaded = parseWorkbook(cb.current.content);
        lastSaved.current = serializeWorkbook(loaded);
        replace(loaded);
        cb.current.reload();
        return;
      }
      for (const c of current.cells) dirty.current.delete(cellKey(c.sheet, c.row, c.col));
      apply(current.cells);
    },
    [conflict, apply, replace],
  );

  /** Replaces the whole workbook (Excel import) and saves it 0.5 s later (spec 002 §4). */
  const importSheets = useCallback(
    (next: Sheet[]) => {
      dirty.current.set('*', '');
      replace(next);
      setActive(0);
      window.setTimeout(() => void save(), 500);
    },
    [replace, save],
  );

  return {
    sheets,
    version,
    active,
    setActive,
    hotRef,
    onEdited,
    conflict,
    settle,
    importSheets,
  };
}
