/**
 * Reads one uploaded file (stdin) and prints its text as JSON `{ "text": "…" }` on stdout: PDF
 * through pdf-parse (PDF.js), DOCX and XLSX by reading their XML parts (fflate), Markdown and
 * plain text as UTF-8. Usage: `node extractTextProcess.mjs <pdf|docx|xlsx|text> <maxChars>`.
 *
 * A process of its own, started by models/files/attachmentText.ts with a small heap and a time
 * limit, so a hostile file (a zip bomb, a PDF that loops) costs this process, never the server.
 * Plain JavaScript so it runs the same from the sources, the bundle and the tests.
 */
import { strFromU8, unzipSync } from 'fflate';

const [kind, maxCharsArg] = process.argv.slice(2);
const maxChars = Math.max(1, Number(maxCharsArg) || 200_000);
/** Largest XML part read out of an archive. */
const MAX_PART_BYTES = 32 * 1024 * 1024;

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function unzipParts(data, wanted) {
  return unzipSync(data, {
    filter: (file) => wanted(file.name) && file.originalSize <= MAX_PART_BYTES,
  });
}

/** A DOCX's body: paragraphs as lines, runs' text, tabs and breaks. */
function docxText(data) {
  const parts = unzipParts(data, (name) => name === 'word/document.xml');
  const xml = parts['word/document.xml'];
  if (!xml) return '';
  return decodeXml(
    strFromU8(xml)
      .replace(/<w:tab\/>/g, '\t')
      .replace(/<w:br\/>|<\/w:p>/g, '\n')
      .replace(/<(?!\/?w:t[ >])[^>]*>/g, '')
      .replace(/<\/?w:t[^>]*>/g, ''),
  );
}

/** An XLSX's cells: shared and inline strings and values, a row per line, cells tab-separated. */
function xlsxText(data) {
  const parts = unzipParts(
    data,
    (name) => name === 'xl/sharedStrings.xml' || /^xl\/worksheets\/sheet\d+\.xml$/.test(name),
  );
  const textOf = (xml) =>
    [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map((m) => decodeXml(m[1])).join('');
  const shared = parts['xl/sharedStrings.xml']
    ? [...strFromU8(parts['xl/sharedStrings.xml']).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        textOf(m[1]),
      )
    : [];
  const sheets = Object.keys(parts)
    .filter((name) => name.startsWith('xl/worksheets/'))
    .sort((a, b) => Number(a.match(/\d+/)[0]) - Number(b.match(/\d+/)[0]));
  const lines = [];
  for (const name of sheets) {
    for (const row of strFromU8(parts[name]).matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
      const cells = [];
      for (const cell of row[1].matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
        const attrs = cell[1];
        const body = cell[2] ?? '';
        const type = /\bt="([^"]*)"/.exec(attrs)?.[1];
        const value = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
        if (type === 's' && value !== undefined) cells.push(shared[Number(value)] ?? '');
        else if (type === 'inlineStr') cells.push(textOf(body));
        else if (value !== undefined) cells.push(decodeXml(value));
      }
      if (cells.length) lines.push(cells.join('\t'));
      if (lines.length > maxChars) break;
    }
  }
  return lines.join('\n');
}

async function pdfText(data) {
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data, verbosity: 0 });
  try {
    return (await parser.getText({ pageJoiner: '' })).text;
  } finally {
    await parser.destroy();
  }
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const data = new Uint8Array(Buffer.concat(chunks));

let text;
if (kind === 'pdf') text = await pdfText(data);
else if (kind === 'docx') text = docxText(data);
else if (kind === 'xlsx') text = xlsxText(data);
else if (kind === 'text') text = new TextDecoder('utf-8').decode(data);
else throw new Error(`unknown kind ${kind}`);

process.stdout.write(JSON.stringify({ text: text.slice(0, maxChars) }));
