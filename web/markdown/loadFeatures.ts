/**
 * Loads the optional renderers a document needs (each once, in its own chunk) and registers them;
 * resolves true when something new was installed, so the caller renders again.
 */
import type { RenderNeeds } from './env';
import { highlighter, mathRenderer } from './features';

let math: Promise<void> | null = null;

function loadMath(): Promise<void> {
  math ??= Promise.all([import('./katexRenderer'), import('./featureStyles')]).then(([m]) =>
    m.installKatex(),
  );
  return math;
}

function loadHighlight(languages: readonly string[]): Promise<void> {
  return import('./highlighter').then((m) => m.installHighlighter(languages));
}

function highlightReady(languages: readonly string[]): boolean {
  const loaded = highlighter();
  return languages.length === 0 || (!!loaded && languages.every((l) => loaded.covers(l)));
}

/** True when the renderers for these needs are all present (no reload necessary). */
export function featuresReady(needs: RenderNeeds): boolean {
  return (!needs.math || !!mathRenderer()) && highlightReady(needs.highlight);
}

export async function loadFeatures(needs: RenderNeeds): Promise<boolean> {
  if (featuresReady(needs)) return false;
  const work: Promise<void>[] = [];
  if (needs.math && !mathRenderer()) work.push(loadMath());
  if (!highlightReady(needs.highlight)) work.push(loadHighlight(needs.highlight));
  await Promise.all(work);
  return true;
}
