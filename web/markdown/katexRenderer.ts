/**
 * KaTeX as the math renderer (loaded on demand: it is the biggest part of rendering). Untrusted
 * TeX: `trust` off (no \href/\url/\includegraphics to other places), macro expansion and sizes
 * bounded so a page cannot stall the reader, errors shown in place instead of thrown.
 */
import katex from 'katex';
import { registerMathRenderer } from './features';

export function renderTex(tex: string, displayMode: boolean): string {
  return katex.renderToString(tex, {
    displayMode,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    maxSize: 50,
    maxExpand: 1000,
    output: 'htmlAndMathml',
  });
}

export function installKatex(): void {
  registerMathRenderer(renderTex);
}
