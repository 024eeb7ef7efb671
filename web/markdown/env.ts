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
  /** The languages fenced code names, each once, lower-cased (highlight.js grammars to load). */
  highlight: string[];
  /** mermaid diagrams (drawn in the browser after insertion). */
  mermaid: boolean;
}

export interface RenderEnv {
  toc: TocEntry[];
  needs: RenderNeeds;
}

export function newEnv(): RenderEnv {
  return { toc: [], needs: { math: false, highlight: [], mermaid: false } };
}
