/** What one render learns about a document besides its HTML. */
export interface TocEntry {
  /** 1–6 */
  level: number;
  /** The heading's anchor (its element id). */
  id: string;
  text: string;
}

export interface RenderNeeds {
  /** TeX formulas (KaTeX). */
  math: boolean;
  /** Fenced code with a language (highlight.js). */
  highlight: boolean;
  /** mermaid diagrams (drawn in the browser after insertion). */
  mermaid: boolean;
}

export interface RenderEnv {
  toc: TocEntry[];
  needs: RenderNeeds;
}

export function newEnv(): RenderEnv {
  return { toc: [], needs: { math: false, highlight: false, mermaid: false } };
}
