/**
 * Optional renderers, registered when their (lazily loaded) code arrives: KaTeX for math and
 * highlight.js for code. The core renderer works without them — math shows as its TeX source and
 * code unhighlighted — so the reader's first paint never waits for either; once one is
 * registered, the next render uses it. Mermaid is different (it draws into the live DOM) and is
 * handled by the <Markdown> component.
 */
export type MathRenderer = (tex: string, displayMode: boolean) => string;
export interface Highlighter {
  /** Highlighted HTML of `code`, or '' when the language is unknown (or not loaded yet). */
  highlight(code: string, language: string): string;
  /** True when `language` is loaded, or is one no grammar exists for (nothing to wait for). */
  covers(language: string): boolean;
}

interface Registry {
  math: MathRenderer | null;
  highlight: Highlighter | null;
}

const registry: Registry = { math: null, highlight: null };

export function registerMathRenderer(renderer: MathRenderer | null): void {
  registry.math = renderer;
}

export function registerHighlighter(highlighter: Highlighter | null): void {
  registry.highlight = highlighter;
}

export function mathRenderer(): MathRenderer | null {
  return registry.math;
}

export function highlighter(): Highlighter | null {
  return registry.highlight;
}
