/**
 * Text with the ranges search matched drawn as <mark>: React text nodes only, so a snippet of a
 * page holding markup shows that markup as text and never runs it.
 */
import { Fragment } from 'react';

export type Ranges = Array<[number, number]>;

export function Highlighted({ text, ranges }: { text: string; ranges?: Ranges }) {
  if (!ranges?.length) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  ranges.forEach(([start, end], i) => {
    if (start < at || end > text.length || start >= end) return;
    if (start > at) parts.push(<Fragment key={`t${i}`}>{text.slice(at, start)}</Fragment>);
    parts.push(
      <mark key={`m${i}`} className="q-search-mark">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  });
  if (at < text.length) parts.push(<Fragment key="rest">{text.slice(at)}</Fragment>);
  return <>{parts}</>;
}
