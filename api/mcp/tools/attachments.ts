/**
 * Attachment tools (ShowDoc's AttachmentHandler): upload a file given as Base64, list an item's or
 * a page's attachments, delete one. Uploads go through models/files `storeUpload` — the checks
 * of page/upload: allowed names, content that matches its extension, the site's size limit —
 * and deletions through `deleteItemFile`, as the open API's. ShowDoc took file URLs once and
 * dropped them (the server fetching any address an agent names is a door into its network): an
 * agent downloads the file itself and sends its bytes, here as there.
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  deleteItemFile,
  detectKind,
  itemAttachments,
  pageAttachments,
  storeUpload,
} from '../../../models/files';
import { UploadFile } from '../../../models/files';
import { fileStorage, formatUnix, nowSeconds } from '../../../models/platform';
import { fileUrl } from '../../routes/pageUpload';
import { attempt, itemFor, pageFor } from '../access';
import { idArg, optionalIdArg, optionalStringArg } from '../args';
import { integer, objectSchema, string } from '../schema';
import { defineTools, MCP_ERRORS, McpToolError } from '../toolkit';

const invalid = (message: string) => new McpToolError(MCP_ERRORS.INVALID_PARAMS, message);

/** Longest Base64 text taken (the endpoint's 1 MB body bounds it anyway). */
const MAX_BASE64_CHARS = 1024 * 1024;

/** Strict Base64 (a `data:…;base64,` prefix and line breaks are tolerated). */
function decodeBase64(raw: string): Buffer {
  const text = raw.replace(/^data:[^,]*;base64,/i, '').replace(/\s+/g, '');
  if (!text || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text))
    throw invalid('file_base64 is not valid Base64');
  const bytes = Buffer.from(text, 'base64');
  if (!bytes.length) throw invalid('file_base64 holds no bytes');
  return bytes;
}

/** ShowDoc names a nameless upload `file_<time>`; here its extension follows its content. */
function defaultName(bytes: Buffer): string {
  const kind = detectKind(bytes);
  const ext = !kind ? 'bin' : kind === 'jpeg' ? 'jpg' : kind;
  return `file_${nowSeconds()}.${ext}`;
}

export const attachmentTools = defineTools(
  {
    name: 'upload_attachment',
    description:
      'Upload an attachment given as Base64-encoded file content. Works for kanban task pages too',
    inputSchema: objectSchema(
      {
        item_id: integer('Item ID'),
        page_id: integer('Page ID (optional)'),
        file_base64: string(
          'The file content, Base64-encoded (required). Download the file first, then encode its bytes as Base64',
        ),
        file_name: string('File name (optional, with its extension, e.g. image.png)'),
      },
      ['item_id', 'file_base64'],
    ),
    write: true,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      await itemFor(caller, itemId, 'write');
      const pageId = optionalIdArg(args, 'page_id');
      if (pageId > 0) {
        const { page } = await pageFor(caller, pageId, 'write');
        if (page.item_id !== itemId) throw invalid('page_id does not belong to this item');
      }
      const base64 = optionalStringArg(args, 'file_base64', '', MAX_BASE64_CHARS).trim();
      if (!base64) throw invalid('file_base64 is required (the file content, Base64-encoded)');
      const bytes = decodeBase64(base64);
      const fileName = optionalStringArg(args, 'file_name').trim() || defaultName(bytes);

      const staged = join(
        await fileStorage().stagingDir(),
        `mcp-${randomBytes(12).toString('hex')}`,
      );
      await writeFile(staged, bytes, { mode: 0o600 });
      try {
        const file = await attempt(() =>
          storeUpload(caller.actor, {
            target: { itemId, pageId },
            purpose: 'file',
            clientName: fileName,
            staged: { path: staged, size: bytes.length },
          }),
        );
        return {
          file_id: file.file_id,
          file_name: file.display_name,
          file_type: file.file_type,
          file_size: file.file_size,
          url: fileUrl(caller.baseUrl, file.sign),
          sign: file.sign,
          item_id: itemId,
          page_id: pageId,
          message: 'Uploaded',
        };
      } finally {
        // storeUpload moved the bytes on success; on refusal they are still here.
        await rm(staged, { force: true });
      }
    },
  },
  {
    name: 'list_attachments',
    description: "List an item's or a page's attachments (works for kanban task pages too)",
    inputSchema: objectSchema(
      {
        item_id: integer('Item ID'),
        page_id: integer("Page ID (optional: only this page's attachments)"),
      },
      [],
    ),
    write: false,
    async handler(caller, args) {
      let itemId = optionalIdArg(args, 'item_id');
      const pageId = optionalIdArg(args, 'page_id');
      if (!itemId && !pageId) throw invalid('Give item_id or page_id');
      let files;
      if (pageId > 0) {
        const { page } = await pageFor(caller, pageId, 'read');
        if (!itemId) itemId = page.item_id;
        else await itemFor(caller, itemId, 'read');
        files =
          page.item_id === itemId
            ? (await attempt(() => pageAttachments(caller.actor, pageId))).map((a) => a.file)
            : [];
      } else {
        await itemFor(caller, itemId, 'read');
        files = await attempt(() => itemAttachments(caller.actor, itemId));
      }
      const attachments = files.map((file) => ({
        file_id: file.file_id,
        file_name: file.display_name,
        file_type: file.file_type,
        file_size: file.file_size,
        url: fileUrl(caller.baseUrl, file.sign),
        sign: file.sign,
        item_id: itemId,
        page_id: pageId,
        addtime: formatUnix(file.addtime),
      }));
      return { item_id: itemId, page_id: pageId, attachments, total: attachments.length };
    },
  },
  {
    name: 'delete_attachment',
    description: 'Delete an attachment',
    inputSchema: objectSchema(
      {
        file_id: integer('File ID (or give sign)'),
        sign: string('File sign (or give file_id)'),
      },
      [],
    ),
    write: true,
    async handler(caller, args) {
      const fileId = optionalIdArg(args, 'file_id');
      const sign = optionalStringArg(args, 'sign', '', 200).trim();
      if (!fileId && !sign) throw invalid('Give file_id or sign');
      const file = await UploadFile.findOne(fileId > 0 ? { file_id: fileId } : { sign }, {
        _id: 0,
      }).lean();
      if (!file) throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, 'Attachment not found');
      // ShowDoc: the item's managers delete its files.
      await itemFor(caller, file.item_id, 'manage');
      await attempt(() =>
        deleteItemFile(caller.actor, file.item_id, { fileId: file.file_id, sign: '' }),
      );
      return { file_id: file.file_id, file_name: file.display_name, message: 'Deleted' };
    },
  },
);
