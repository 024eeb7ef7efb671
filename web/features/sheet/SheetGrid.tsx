/**
 * One sheet in Handsontable (spec 002 §9: 800 rows of height 25, the view as high as the window
 * minus 90). Only the modules the view uses are registered, which keeps the chunk small. Edits
 * pass through `gate` first: without the lock they are refused (and the lock is asked for).
 */
import { HotTable, type HotTableRef } from '@handsontable/react-wrapper';
import type { CellChange, ChangeSource } from 'handsontable/base';
import { registerCellType, TextCellType } from 'handsontable/cellTypes';
import { CopyPaste, MergeCells, registerPlugin, UndoRedo } from 'handsontable/plugins';
import 'handsontable/styles/handsontable.min.css';
import 'handsontable/styles/ht-theme-main.min.css';
import './sheet.css';
import type { RefObject } from 'react';
import type { Sheet } from './workbook';

registerCellType(TextCellType);
registerPlugin(CopyPaste);
registerPlugin(MergeCells);
registerPlugin(UndoRedo);

/** Changes this view makes itself (loading, others' saves): never saved back, never gated. */
export const REMOTE_SOURCE = 'remote';

export interface SheetGridProps {
  sheet: Sheet;
  height: number;
  readOnly: boolean;
  hotRef: RefObject<HotTableRef | null>;
  /** false refuses the edit. */
  gate(): boolean;
  onEdited(changes: CellChange[]): void;
}

/** What a user does to cells; every other source (loading, merging, others' saves) is the view's own. */
const USER_SOURCE = /^(edit|CopyPaste\.|Autofill\.|UndoRedo\.|ContextMenu\.)/;
const userChange = (source: ChangeSource | string) => USER_SOURCE.test(source);

export function SheetGrid({ sheet, height, readOnly, hotRef, gate, onEdited }: SheetGridProps) {
  return (
    <div data-testid="sheet-grid">
      <HotTable
        ref={hotRef}
        data={sheet.data}
        themeName="ht-theme-main"
        licenseKey="non-commercial-and-evaluation"
        colHeaders
        rowHeaders
        rowHeights={25}
        height={height}
        width="100%"
        readOnly={readOnly}
        mergeCells={sheet.merges.length ? sheet.merges : false}
        outsideClickDeselects={false}
        beforeBeginEditing={() => gate()}
        beforeChange={(_changes, source: ChangeSource | string) =>
          !userChange(source) || gate() ? undefined : false
        }
        afterChange={(changes, source: ChangeSource | string) => {
          const real = (changes ?? []).filter(([, , old, value]) => (old ?? '') !== (value ?? ''));
          if (real.length && userChange(source)) onEdited(real);
        }}
      />
    </div>
  );
}
