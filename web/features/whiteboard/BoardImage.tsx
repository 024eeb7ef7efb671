/**
 * A saved whiteboard drawn as a picture (fabric on an off-screen canvas): the before/after images
 * of a whiteboard's version diff, and the board of a shared page. Its own lazy chunk with fabric.
 */
import { Skeleton } from 'antd';
import { StaticCanvas } from 'fabric';
import { useEffect, useState } from 'react';
import { boardOfContent } from '../../../realtime/whiteboardProtocol';
import { drawBoard } from './boardBinding';
import { withWholeBoard } from './tools';

async function render(content: string): Promise<string> {
  const element = document.createElement('canvas');
  const canvas = new StaticCanvas(element, { width: 800, height: 500, renderOnAddRemove: false });
  try {
    await drawBoard(canvas, boardOfContent(content));
    if (!canvas.backgroundColor) canvas.backgroundColor = '#ffffff';
    return withWholeBoard(canvas, () => canvas.toDataURL({ format: 'png', multiplier: 1 }));
  } finally {
    void canvas.dispose();
  }
}

export default function BoardImage({
  content,
  label,
  testId,
}: {
  content: string;
  label: string;
  testId?: string;
}) {
  const [src, setSrc] = useState('');
  useEffect(() => {
    let current = true;
    render(content).then(
      (url) => current && setSrc(url),
      () => current && setSrc(''),
    );
    return () => {
      current = false;
    };
  }, [content]);
  if (!src) return <Skeleton.Image active />;
  return (
    <img
      src={src}
      alt={label}
      data-testid={testId}
      style={{ maxWidth: '100%', border: '1px solid #eef0f3', background: '#fff' }}
    />
  );
}
