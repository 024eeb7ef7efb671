/**
 * Importing a file as a new item (create dialog's third tab): a ShowDoc export, Markdown file or
 * zip, Swagger/OpenAPI or Postman file, sent to `import/auto` with a live progress bar.
 */
import { ImportDropzone } from '../transfer/ImportDropzone';

export function ImportPanel({ onImported }: { onImported: () => void }) {
  return <ImportDropzone itemId={0} onImported={onImported} />;
}
