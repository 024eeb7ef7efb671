/**
 * `export/word`: a real .docx (the `docx` library) of the whole item, one catalog or one page, in
 * ShowDoc's outline — numbered headings "1、", "1.2、" for catalogs and pages, each page's text
 * below its heading. Markdown is read with markdown-it (the reader's parser) and mapped onto Word
 * paragraphs, lists, tables and code blocks; API-document pages are converted to ShowDoc's
 * Markdown first. Pictures uploaded into this item are embedded; others stay as links.
 */
import { imageSize } from 'image-size';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import {
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from 'docx';
import { type Actor } from '../access';
import { FilePage, UploadFile, type UploadFileDoc } from '../files';
import { Page } from '../pages';
import { fileStorage } from '../platform';
import { runapiToMarkdown } from './runapiMarkdown';
import {
  logItemExport,
  exportTree,
  type ExportCatalog,
  type ExportPage,
  type ExportScope,
} from './exportTree';

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
];
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_IMAGE_WIDTH = 600;
const DOCX_IMAGE_TYPES = { png: 'png', jpg: 'jpg', jpeg: 'jpg', gif: 'gif', bmp: 'bmp' } as const;

type Block = Paragraph | Table;
type ImageLoader = (src: string) => Promise<ImageRun | null>;

function heading(text: string, depth: number): Paragraph {
  return new Paragraph({ text, heading: HEADINGS[Math.min(depth, 6) - 1] });
}

interface Style {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  code?: boolean;
}

function textRun(text: string, style: Style): TextRun {
  return new TextRun({
    text,
    bold: style.bold,
    italics: style.italics,
    strike: style.strike,
    ...(style.code
      ? { font: 'Consolas', shading: { type: ShadingType.CLEAR, fill: 'EEEEEE', color: 'auto' } }
      : {}),
  });
}

/** An inline token list → runs (links as hyperlinks, pictures embedded when we have them). */
async function inlineRuns(tokens: Token[], loadImage: ImageLoader): Promise<ParagraphChild[]> {
  const out: ParagraphChild[] = [];
  const style: Style = {};
  let link: { href: string; runs: TextRun[] } | null = null;
  const push = (run: TextRun) => (link ? link.runs.push(run) : out.push(run));
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        push(textRun(token.content, style));
        break;
      case 'code_inline':
        push(textRun(token.content, { ...style, code: true }));
        break;
      case 'softbreak':
        push(textRun(' ', style));
        break;
      case 'hardbreak':
        push(new TextRun({ text: '', break: 1 }));
        break;
      case 'strong_open':
      case 'strong_close':
        style.bold = token.type === 'strong_open';
        break;
      case 'em_open':
      case 'em_close':
        style.italics = token.type === 'em_open';
        break;
      case 's_open':
      case 's_close':
        style.strike = token.type === 's_open';
        break;
      case 'link_open':
        link = { href: token.attrGet('href') ?? '', runs: [] };
        break;
      case 'link_close':
        if (link && /^https?:\/\//i.test(link.href))
          out.push(new ExternalHyperlink({ link: link.href, children: link.runs }));
        else if (link) out.push(...link.runs);
        link = null;
        break;
      case 'image': {
        const src = token.attrGet('src') ?? '';
        const image = await loadImage(src);
        if (image) out.push(image);
        else push(textRun(`[${token.content || 'image'}](${src})`, style));
        break;
      }
      case 'html_inline':
        push(textRun(token.content, style));
        break;
      default:
        if (token.content) push(textRun(token.content, style));
    }
  }
  return out;
}

/** Finds the matching close token of the open token at `start`. */
function closing(tokens: Token[], start: number): number {
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    depth += tokens[i].nesting;
    if (depth === 0) return i;
  }
  return tokens.length - 1;
}

async function tableOf(tokens: Token[], loadImage: ImageLoader): Promise<Table> {
  const rows: TableRow[] = [];
  let cells: TableCell[] = [];
  let header = false;
  for (const token of tokens) {
    if (token.type === 'thead_open') header = true;
    if (token.type === 'tbody_open') header = false;
    if (token.type === 'tr_open') cells = [];
    if (token.type === 'inline') {
      const runs = await inlineRuns(token.children ?? [], loadImage);
      cells.push(
        new TableCell({
          children: [new Paragraph({ children: runs })],
          ...(header
            ? { shading: { type: ShadingType.CLEAR, fill: 'F2F2F2', color: 'auto' } }
            : {}),
        }),
      );
    }
    if (token.type === 'tr_close' && cells.length) rows.push(new TableRow({ children: cells }));
  }
  return new Table({ rows, width: { size: 100, type: WidthType.PERCENTAGE } });
}

/** Block tokens → Word blocks. `depth` is the heading depth of the page title. */
async function blocksOf(
  tokens: Token[],
  depth: number,
  loadImage: ImageLoader,
  list: { level: number; ordered: boolean[]; counters: number[] } = {
    level: -1,
    ordered: [],
    counters: [],
  },
  quote = 0,
): Promise<Block[]> {
  const out: Block[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    switch (token.type) {
      case 'heading_open': {
        const runs = await inlineRuns(tokens[i + 1].children ?? [], loadImage);
        const level = Math.min(depth + Number(token.tag.slice(1)), 6);
        out.push(new Paragraph({ children: runs, heading: HEADINGS[level - 1] }));
        i = closing(tokens, i);
        break;
      }
      case 'paragraph_open': {
        const runs = await inlineRuns(tokens[i + 1].children ?? [], loadImage);
        const inList = list.level >= 0;
        const itemStart = inList && tokens[i - 1]?.type === 'list_item_open';
        const indent = { left: 360 * (list.level + 1) };
        if (itemStart && list.ordered[list.level]) {
          const n = ++list.counters[list.level];
          out.push(new Paragraph({ children: [new TextRun(`${n}. `), ...runs], indent }));
        } else if (itemStart) {
          out.push(new Paragraph({ children: runs, bullet: { level: Math.min(list.level, 8) } }));
        } else if (inList) {
          out.push(new Paragraph({ children: runs, indent }));
        } else {
          out.push(
            new Paragraph({ children: runs, indent: quote ? { left: 480 * quote } : undefined }),
          );
        }
        i = closing(tokens, i);
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const end = closing(tokens, i);
        const inner = {
          level: list.level + 1,
          ordered: [...list.ordered, token.type === 'ordered_list_open'],
          counters: [...list.counters, Number(token.attrGet('start') ?? 1) - 1],
        };
        out.push(...(await blocksOf(tokens.slice(i + 1, end), depth, loadImage, inner, quote)));
        list.counters.splice(0, list.counters.length, ...inner.counters.slice(0, -1));
        i = end;
        break;
      }
      case 'blockquote_open': {
        const end = closing(tokens, i);
        out.push(...(await blocksOf(tokens.slice(i + 1, end), depth, loadImage, list, quote + 1)));
        i = end;
        break;
      }
      case 'table_open': {
        const end = closing(tokens, i);
        out.push(await tableOf(tokens.slice(i, end + 1), loadImage));
        i = end;
        break;
      }
      case 'fence':
      case 'code_block':
        for (const line of token.content.replace(/\n$/, '').split('\n'))
          out.push(
            new Paragraph({
              children: [new TextRun({ text: line, font: 'Consolas', size: 18 })],
              shading: { type: ShadingType.CLEAR, fill: 'F6F8FA', color: 'auto' },
              spacing: { before: 0, after: 0 },
            }),
          );
        break;
      case 'html_block':
        out.push(new Paragraph({ children: [new TextRun(token.content.trim())] }));
        break;
      case 'hr':
        out.push(
          new Paragraph({
            border: { bottom: { style: 'single', size: 6, color: 'CCCCCC', space: 1 } },
          }),
        );
        break;
      default:
        break;
    }
  }
  return out;
}

/** Loads pictures of this item (uploaded into it, or attached to one of its pages) by sign. */
function imageLoader(itemId: number): ImageLoader {
  const cache = new Map<string, Promise<ImageRun | null>>();
  const load = async (sign: string): Promise<ImageRun | null> => {
    const file = await UploadFile.findOne({ sign }, { _id: 0 }).lean<UploadFileDoc>();
    if (!file || !file.storage_key || file.file_size > MAX_IMAGE_BYTES) return null;
    if (file.item_id !== itemId) {
      const pages = await FilePage.find({ file_id: file.file_id }, { page_id: 1, _id: 0 }).lean();
      const ours = await Page.exists({
        page_id: { $in: pages.map((p) => p.page_id) },
        item_id: itemId,
      });
      if (!ours) return null;
    }
    const stored = await fileStorage().open(file.storage_key);
    if (!stored) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    try {
      const size = imageSize(data);
      const type = DOCX_IMAGE_TYPES[(size.type ?? '') as keyof typeof DOCX_IMAGE_TYPES];
      if (!type || !size.width || !size.height) return null;
      const scale = Math.min(1, MAX_IMAGE_WIDTH / size.width);
      return new ImageRun({
        type,
        data,
        transformation: {
          width: Math.round(size.width * scale),
          height: Math.round(size.height * scale),
        },
      });
    } catch {
      return null; // not a picture Word can show: left as a link
    }
  };
  return (src) => {
    const sign = /[?&]sign=([0-9a-f]{32})\b/.exec(src)?.[1];
    if (!sign) return Promise.resolve(null);
    if (!cache.has(sign)) cache.set(sign, load(sign));
    return cache.get(sign)!;
  };
}

export interface WordExport {
  fileName: string;
  docx: Buffer;
}

/** `export/word` for the whole item, a catalog (`catId`) or a page (`pageId`). */
export async function exportWord(actor: Actor, scope: ExportScope): Promise<WordExport> {
  const { access, tree } = await exportTree(actor, scope);
  const item = access.item;
  const md = new MarkdownIt({ html: false, linkify: true });
  const loadImage = imageLoader(item.item_id);
  const blocks: Block[] = [];

  const pageBlocks = async (page: ExportPage, title: string, depth: number) => {
    blocks.push(heading(title, depth));
    const markdown = runapiToMarkdown(page.page_content) ?? page.page_content;
    blocks.push(...(await blocksOf(md.parse(markdown, {}), depth, loadImage)));
  };
  const catalogBlocks = async (cat: ExportCatalog, number: string, depth: number) => {
    let child = 1;
    for (const page of cat.pages)
      await pageBlocks(page, `${number}.${child++}、${page.page_title}`, depth);
    let sub = 1;
    for (const inner of cat.catalogs) {
      const innerNumber = `${number}.${sub++}`;
      blocks.push(heading(`${innerNumber}、${inner.cat_name}`, depth));
      await catalogBlocks(inner, innerNumber, depth + 1);
    }
  };

  let n = 1;
  const single = tree.pages.length === 1 && !tree.catalogs.length;
  for (const page of tree.pages)
    await pageBlocks(page, single ? page.page_title : `${n++}、${page.page_title}`, 1);
  for (const cat of tree.catalogs) {
    const number = String(n++);
    blocks.push(heading(`${number}、${cat.cat_name}`, 1));
    await catalogBlocks(cat, number, 2);
  }
  if (!blocks.length) blocks.push(new Paragraph(''));

  const doc = new Document({
    creator: 'Quire',
    title: item.item_name,
    sections: [{ children: blocks }],
  });
  const docx = await Packer.toBuffer(doc);
  await logItemExport(actor, item);
  return { fileName: 'showdoc_export.docx', docx };
}
