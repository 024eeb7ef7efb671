/**
 * Draws the mermaid blocks of a rendered document in place (browser only; mermaid is loaded with
 * this chunk, and only for pages that have a diagram). `securityLevel: 'strict'` makes mermaid
 * encode labels and drop click handlers; its SVG then goes through the diagram sanitiser too.
 * A diagram that does not parse shows its source with the error, not a broken picture.
 */
import mermaid from 'mermaid';
import { sanitizeDiagram } from './sanitize';

let initialised = false;
let counter = 0;
/** Drawing runs one container at a time: mermaid's render is not safe to run concurrently, and
 * a re-render (KaTeX arriving) can ask again while the first drawing is still in flight. */
let queue: Promise<void> = Promise.resolve();

export function drawDiagrams(container: HTMLElement): Promise<void> {
  queue = queue.then(() => drawNow(container)).catch(() => {});
  return queue;
}

async function drawNow(container: HTMLElement): Promise<void> {
  if (!initialised) {
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' });
    initialised = true;
  }
  const blocks = Array.from(
    container.querySelectorAll<HTMLElement>('.md-mermaid:not([data-drawn])'),
  );
  for (const block of blocks) {
    const source = block.querySelector('.md-mermaid-source')?.textContent ?? '';
    block.setAttribute('data-drawn', 'pending');
    try {
      const { svg } = await mermaid.render(`md-mermaid-${++counter}`, source);
      if (!block.isConnected) continue;
      block.innerHTML = sanitizeDiagram(svg);
      block.setAttribute('data-drawn', 'yes');
    } catch (error) {
      block.setAttribute('data-drawn', 'error');
      const note = document.createElement('div');
      note.className = 'md-mermaid-error';
      note.textContent = error instanceof Error ? error.message : String(error);
      block.appendChild(note);
      // mermaid leaves its error drawing in <body>
      document.getElementById(`dmd-mermaid-${counter}`)?.remove();
    }
  }
}
