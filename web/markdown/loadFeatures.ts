/**
 * Loads the optional renderers a document needs (each once, in its own chunk) and registers them;
 * resolves true when something new was installed, so the caller renders again.
 */
import type { RenderNeeds } from './env';
import { highlighter, mathRenderer } from './features';

let math: Promise<void> | null = null;
let highlight: Promise<void> | null = null;

function loadMath(): Promise<void> {
  math ??= Promise.all([import('./katexRenderer'), import('./featureStyles')]).then(([m]) =>
    m.installKatex(),
  );
  return math;
}

function loadHighlight(): Promise<void> {
  highlight ??= import('./highlighter').then((m) => m.installHighlighter());
  return highlight;
}

/** True when the renderers for these needs are all present (no reload necessary). */
export function featuresReady(needs: RenderNeeds): boolean {
  return (!needs.math || !!mathRenderer()) && (!needs.highlight || !!highlighter());
}

export async function loadFeatures(needs: RenderNeeds): Promise<boolean> {
  if (featuresReady(needs)) return false;
  const work: Promise<void>[] = [];
  if (needs.math && !mathRenderer()) work.push(loadMath());
  if (needs.highlight && !highlighter()) work.push(loadHighlight());
  await Promise.all(work);
  return true;
}
