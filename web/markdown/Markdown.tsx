/**
 * Rendered page content. The HTML comes from renderDocument (sanitised); after it is in the
 * page, this loads what the document needs and nothing more: KaTeX and highlight.js (then renders
 * again), mermaid (then draws the diagrams in place).
 */
import 'highlight.js/styles/github.css';
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { TocEntry } from './env';
import { featuresReady, loadFeatures } from './loadFeatures';
import './markdown.css';
import { renderDocument } from './renderer';

export interface MarkdownProps {
  /** Raw Markdown (already un-escaped). */
  source: string;
  className?: string;
  style?: CSSProperties;
  /** Called with the headings after each render. */
  onToc?: (toc: TocEntry[]) => void;
}

export function Markdown({ source, className, style, onToc }: MarkdownProps) {
  const [featureVersion, setFeatureVersion] = useState(0);
  const container = useRef<HTMLDivElement>(null);
  // featureVersion: render again once KaTeX / highlight.js have arrived.
  const doc = useMemo(() => renderDocument(source), [source, featureVersion]);
  const tocRef = useRef(onToc);
  tocRef.current = onToc;

  useEffect(() => {
    tocRef.current?.(doc.toc);
  }, [doc]);

  useEffect(() => {
    if (featuresReady(doc.needs)) return;
    let current = true;
    loadFeatures(doc.needs).then(
      (changed) => current && changed && setFeatureVersion((v) => v + 1),
      () => {}, // offline: the document stays readable without them
    );
    return () => {
      current = false;
    };
  }, [doc]);

  useEffect(() => {
    const element = container.current;
    if (!doc.needs.mermaid || !element) return;
    import('./mermaidRenderer').then(
      (m) => m.drawDiagrams(element),
      () => {},
    );
  }, [doc]);

  return (
    <div
      ref={container}
      className={className ? `md-content ${className}` : 'md-content'}
      style={style}
      data-testid="markdown"
      dangerouslySetInnerHTML={{ __html: doc.html }}
    />
  );
}
