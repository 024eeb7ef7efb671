/**
 * Reads a PDF (stdin) with pdf-parse (PDF.js) and prints `{ pages, images }` as JSON: the text of
 * each sheet and the sizes (`[width, height]`) of the images embedded on it. A process of its own because PDF.js starts
 * its worker with a dynamic import, which jest's CommonJS sandbox refuses.
 */
import { PDFParse } from 'pdf-parse';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
try {
  const text = await parser.getText();
  const images = await parser.getImage({ imageThreshold: 0, imageBuffer: false });
  process.stdout.write(
    JSON.stringify({
      pages: text.pages.map((page) => page.text),
      images: images.pages.map((page) => page.images.map((image) => [image.width, image.height])),
    }),
  );
} finally {
  await parser.destroy();
}
