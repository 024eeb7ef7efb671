/**
 * Suggesting mode in CodeMirror. While the switch is on, a transaction filter cancels every local
 * change to the text and turns it into a pending proposal instead: typing grows one insertion,
 * Backspace and Delete grow one deletion, a typed replacement of a selection is one replacement.
 * The pending proposal is sent after a pause (or when the next edit lands elsewhere); the page's
 * text — the shared Y.Text — never changes, so a read-only connection is never written to.
 * Decorations show the page's open suggestions and the pending one: deleted text struck through,
 * inserted text as a coloured widget. Remote changes (y-codemirror's own transactions) pass.
 */
import {
  EditorState,
  type Extension,
  type Range,
  StateEffect,
  StateField,
  type TransactionSpec,
} from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  ViewPlugin,
  WidgetType,
} from '@codemirror/view';
import { ySyncAnnotation } from 'y-codemirror.next';
import type { Suggestion } from './api';
import { locate } from './locate';

/** A change being typed in Suggesting mode: [from, to) of the text replaced by `insert`. */
export interface PendingChange {
  from: number;
  to: number;
  insert: string;
}

/** A pending change with its identity (kept when a remote change maps it). */
interface Pending extends PendingChange {
  id: number;
}

/** What the screen gives the extension; the extension fills `view`. */
export interface SuggestController {
  suggesting(): boolean;
  /** Sends a finished pending change; resolves once the server has it (or refused it). */
  propose(change: PendingChange, text: string): Promise<void>;
  /** A view took the extension: show it the suggestions known so far. */
  attached(view: EditorView): void;
  view: EditorView | null;
}

/** Milliseconds of quiet after which the pending change is sent. */
const SEND_AFTER_MS = 900;

const setSuggestions = StateEffect.define<Suggestion[]>();
const setPending = StateEffect.define<Pending | null>();

class InsertWidget extends WidgetType {
  constructor(
    readonly text: string,
    readonly title: string,
    readonly pending: boolean,
  ) {
    super();
  }
  override eq(other: InsertWidget) {
    return other.text === this.text && other.title === this.title && other.pending === this.pending;
  }
  override toDOM() {
    const span = document.createElement('span');
    span.className = this.pending ? 'cm-suggest-ins cm-suggest-pending' : 'cm-suggest-ins';
    span.textContent = this.text;
    span.title = this.title;
    return span;
  }
}

interface SuggestState {
  suggestions: Suggestion[];
  pending: Pending | null;
  decorations: DecorationSet;
}

function decorate(state: EditorState, suggestions: Suggestion[], pending: Pending | null) {
  const text = state.doc.toString();
  const ranges: Range<Decoration>[] = [];
  const mark = (from: number, to: number, title: string, extra = '') =>
    from < to &&
    ranges.push(
      Decoration.mark({ class: `cm-suggest-del${extra}`, attributes: { title } }).range(from, to),
    );
  const widget = (at: number, insert: string, title: string, isPending: boolean) =>
    insert &&
    ranges.push(
      Decoration.widget({ widget: new InsertWidget(insert, title, isPending), side: -1 }).range(at),
    );
  for (const s of suggestions) {
    const at = locate(text, s);
    if (at < 0) continue;
    const end = at + s.old_text.length;
    mark(at, end, s.author_name);
    widget(end, s.new_text, s.author_name, false);
  }
  if (pending) {
    mark(pending.from, pending.to, '', ' cm-suggest-pending');
    widget(pending.to, pending.insert, '', true);
  }
  return Decoration.set(ranges, true);
}

const suggestField = StateField.define<SuggestState>({
  create: () => ({ suggestions: [], pending: null, decorations: Decoration.none }),
  update(value, tr) {
    let { suggestions, pending } = value;
    let changed = tr.docChanged;
    for (const effect of tr.effects) {
      if (effect.is(setSuggestions)) suggestions = effect.value;
      else if (effect.is(setPending)) pending = effect.value;
      else continue;
      changed = true;
    }
    if (!changed) return value;
    // A remote change moves the pending range with the text.
    if (pending && tr.docChanged)
      pending = {
        ...pending,
        from: tr.changes.mapPos(pending.from, -1),
        to: tr.changes.mapPos(pending.to, 1),
      };
    return { suggestions, pending, decorations: decorate(tr.state, suggestions, pending) };
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.decorations),
});

/** The pending change after a local change [fromA, toA) → text, or null: start a new one. */
function grow(p: Pending, fromA: number, toA: number, text: string): Pending | null {
  if (text && fromA === toA && (fromA === p.to || fromA === p.from))
    return { ...p, insert: p.insert + text };
  if (!text && toA === p.to && p.insert) return { ...p, insert: p.insert.slice(0, -1) };
  if (!text && toA === p.from) return { ...p, from: fromA };
  if (!text && fromA === p.to && !p.insert) return { ...p, to: toA };
  return null;
}

/** The pieces of one view's Suggesting mode, sharing which pending changes were sent. */
function suggesting(controller: SuggestController) {
  /** Pending changes sent to the server: typing on starts a new one. */
  const sent = new Set<number>();
  let nextId = 1;

  /** Sends a finished change (once) and removes it from the view when the server has it. */
  function flush(change: Pending, text: string): void {
    if (sent.has(change.id) || (change.from === change.to && !change.insert)) return;
    sent.add(change.id);
    void controller.propose(change, text).finally(() => {
      const view = controller.view;
      if (view && view.state.field(suggestField).pending?.id === change.id)
        view.dispatch({ effects: setPending.of(null) });
    });
  }

  const filter = EditorState.transactionFilter.of((tr) => {
    if (!tr.docChanged || !controller.suggesting() || tr.annotation(ySyncAnnotation)) return tr;
    let first: { fromA: number; toA: number; text: string } | null = null;
    tr.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
      first ??= { fromA, toA, text: inserted.toString() };
    });
    if (!first) return tr;
    const { fromA, toA, text } = first as { fromA: number; toA: number; text: string };
    const current = tr.startState.field(suggestField).pending;
    const grown = current && !sent.has(current.id) ? grow(current, fromA, toA, text) : null;
    if (current && !grown) flush(current, tr.startState.doc.toString());
    const next = grown ?? { id: nextId++, from: fromA, to: toA, insert: text };
    // Where typing goes on: after an insertion, before a Backspace, after a Delete.
    let head: number;
    if (text) head = grown ? fromA : next.to;
    else if (grown && current && next.insert.length < current.insert.length) head = toA;
    else head = tr.isUserEvent('delete.forward') ? toA : fromA;
    const empty = next.from === next.to && !next.insert;
    const spec: TransactionSpec = {
      effects: setPending.of(empty ? null : next),
      selection: { anchor: head },
      scrollIntoView: true,
    };
    return spec;
  });

  /** Sends the pending change after a pause in typing. */
  const sender = ViewPlugin.define((view) => {
    controller.view = view;
    // Not during the view's construction: a dispatch has to wait until it is built.
    setTimeout(() => {
      if (controller.view === view) controller.attached(view);
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let scheduled: Pending | null = null;
    return {
      update(update) {
        const pending = update.state.field(suggestField).pending;
        if (pending === scheduled) return;
        scheduled = pending;
        clearTimeout(timer);
        if (!pending) return;
        timer = setTimeout(() => {
          const now = view.state.field(suggestField).pending;
          if (now) flush(now, view.state.doc.toString());
        }, SEND_AFTER_MS);
      },
      destroy() {
        clearTimeout(timer);
        if (controller.view === view) controller.view = null;
      },
    };
  });

  /** Sends the pending change now (the switch goes off). */
  const flushNow = () => {
    const view = controller.view;
    const pending = view?.state.field(suggestField).pending;
    if (view && pending) flush(pending, view.state.doc.toString());
  };

  return { extension: [suggestField, filter, sender, theme], flushNow };
}

const theme = EditorView.baseTheme({
  '.cm-suggest-ins': {
    color: '#137333',
    backgroundColor: 'rgba(19, 115, 51, 0.12)',
    textDecoration: 'underline',
  },
  '.cm-suggest-del': {
    color: '#b3261e',
    backgroundColor: 'rgba(179, 38, 30, 0.08)',
    textDecoration: 'line-through',
  },
  '.cm-suggest-pending': { opacity: 0.75, outline: '1px dashed currentColor' },
});

/** The view's Suggesting mode; `flushNow` sends the change being typed at once. */
export function suggestExtension(controller: SuggestController): {
  extension: Extension;
  flushNow(): void;
} {
  return suggesting(controller);
}

/** Shows the page's open suggestions in the view. */
export function showSuggestions(view: EditorView, suggestions: Suggestion[]): void {
  view.dispatch({ effects: setSuggestions.of(suggestions) });
}
