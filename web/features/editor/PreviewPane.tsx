/** The live preview beside the editor: the reader's own renderer, so what you see is what readers get. */
import { Markdown } from '../../markdown/Markdown';

export function PreviewPane({ source }: { source: string }) {
  return (
    <div
      data-testid="editor-preview"
      style={{
        height: '100%',
        overflow: 'auto',
        padding: '12px 20px',
        borderLeft: '1px solid #eceef2',
      }}
    >
      <Markdown source={source} />
    </div>
  );
}
