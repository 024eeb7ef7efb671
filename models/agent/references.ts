/**
 * The model cites pages as ShowDoc's assistant does, `[[page:ID|Title]]`. Streamed text passes
 * through here: a complete marker for a page the tools showed this asker becomes a `ref` event
 * (and a Markdown link in the stored answer) with the title Quire knows, never the model's; a
 * marker for any other page is dropped, so an answer cannot link a page its asker may not read.
 * A marker split across chunks is held until it is complete.
 */
const MARKER = /\[\[page:(\d+)(?:\|[^\]\n]{0,200})?\]\]/g;
/** A tail that may still grow into a marker. */
const PARTIAL = /\[(?:\[(?:p(?:a(?:g(?:e(?::\d*(?:\|[^\]\n]{0,200})?\]?)?)?)?)?)?)?$/;

export interface PageRef {
  page_id: number;
  page_title: string;
  item_id: number;
}

export interface ReferenceOutput {
  text(piece: string): void;
  ref(ref: PageRef): void;
}

export class ReferenceFilter {
  private held = '';
  /** The answer as stored: text with known markers as Markdown links. */
  stored = '';
  readonly refs: PageRef[] = [];

  constructor(
    private readonly known: (pageId: number) => { title: string; item_id: number } | undefined,
    private readonly out: ReferenceOutput,
  ) {}

  private emitText(piece: string) {
    if (!piece) return;
    this.stored += piece;
    this.out.text(piece);
  }

  push(piece: string): void {
    const text = this.held + piece;
    this.held = '';
    let last = 0;
    for (const match of text.matchAll(MARKER)) {
      this.emitText(text.slice(last, match.index));
      last = match.index + match[0].length;
      const pageId = Number(match[1]);
      const page = this.known(pageId);
      if (!page) continue;
      const ref = { page_id: pageId, page_title: page.title, item_id: page.item_id };
      this.refs.push(ref);
      this.stored += `[${page.title.replace(/[[\]]/g, '')}](/${page.item_id}/${pageId})`;
      this.out.ref(ref);
    }
    const rest = text.slice(last);
    const partial = PARTIAL.exec(rest);
    if (partial) {
      this.emitText(rest.slice(0, partial.index));
      this.held = rest.slice(partial.index);
    } else this.emitText(rest);
  }

  /** The end of the stream: a held tail was no marker after all. */
  flush(): void {
    const rest = this.held;
    this.held = '';
    this.emitText(rest);
  }
}
