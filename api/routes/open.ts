/**
 * `open/*` (ShowDoc's OpenController) and its older names `item/updateByApi` and
 * `fromComments/generate`: scripts keep pages in sync with an item's `api_key` + `api_token`.
 * The rules live in models/transfer/; answers are shaped as ShowDoc's (`fromComments` answers
 * plain text, as ShowDoc's shell script expects).
 */
import { rm } from 'node:fs/promises';
import { deleteItemFile, storeUpload } from '../../models/files';
import { errors, fileStorage, formatUnix, isApiError } from '../../models/platform';
import { catalogRow } from '../../models/catalogs';
import {
  authenticateApiKey,
  catalogTree,
  createCatalogOfItem,
  deleteCatalogOfItem,
  deletePageOfItem,
  pageOfItem,
  pagesFromComments,
  savePageByTitle,
  updateCatalogOfItem,
  type KeyHolder,
} from '../../models/transfer';
import { pushSpec } from '../../models/contracts';
import { openContract, type Input } from '../contracts';
import type { ActionContext, ActionHandler } from '../registry';
import { defineController } from '../registry';
import { pageRow } from './pagePresent';
import { fileUrl } from './pageUpload';
import { paramsWithForm, publicBaseUrl, receiveMultipart, uploadLimitBytes } from '../uploads';

/** The item whose `api_key` + `api_token` the script sent (ordinary parameters of every action). */
function keyHolder(input: { api_key: string; api_token: string }): Promise<KeyHolder> {
  return authenticateApiKey(input.api_key.trim(), input.api_token.trim());
}

/** open/updatePage, open/updateItem and item/updateByApi: one contract (updatePageByApi). */
const updatePage: ActionHandler = async (ctx) => {
  const input = ctx.input as Input<'open', 'updatePage'>;
  const holder = await keyHolder(input);
  let catPath = input.cat_name;
  // ShowDoc's older scripts send the second level separately.
  if (input.cat_name_sub) catPath = `${catPath}/${input.cat_name_sub}`;
  const page = await savePageByTitle(holder, {
    title: input.page_title,
    content: input.page_content,
    catPath,
    sNumber: input.s_number,
  });
  return pageRow(page, { times: 'raw' });
};

function text(ctx: ActionContext, body: string): void {
  ctx.res.type('text/plain; charset=utf-8').send(body);
}

const fromComments: ActionHandler = async (ctx) => {
  let holder: KeyHolder;
  try {
    // No contract: also reached as `fromComments/generate`, ShowDoc's older name.
    holder = await keyHolder({
      api_key: ctx.params.str('api_key'),
      api_token: ctx.params.str('api_token'),
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    return text(ctx, '\napi_key或者api_token不匹配\n\n');
  }
  try {
    const pages = await pagesFromComments(holder, ctx.params.str('content'));
    text(ctx, pages.length ? '\n 成功 \n\n ' : '失败');
  } catch (error) {
    if (!isApiError(error)) throw error;
    // The script prints the answer: say what went wrong instead of ShowDoc's bare "failed".
    text(ctx, `失败: ${error.message}`);
  }
};

const declared = defineController('open', openContract, {
  updatePage,
  updateItem: updatePage,

  async getPage(ctx) {
    const holder = await keyHolder(ctx.input);
    const page = await pageOfItem(holder, ctx.input.page_id, ctx.input.page_title);
    return { ...pageRow(page, { times: 'raw' }), addtime: formatUnix(page.addtime) };
  },

  async deletePage(ctx) {
    const holder = await keyHolder(ctx.input);
    const pageId = ctx.input.page_id;
    await deletePageOfItem(holder, pageId);
    return { page_id: pageId };
  },

  async getCatalogTree(ctx) {
    return catalogTree(await keyHolder(ctx.input));
  },

  async createCatalog(ctx) {
    const holder = await keyHolder(ctx.input);
    const cat = await createCatalogOfItem(holder, {
      name: ctx.input.cat_name.trim(),
      parentCatId: ctx.input.parent_cat_id,
      sNumber: ctx.input.s_number,
    });
    return catalogRow(cat);
  },

  async updateCatalog(ctx) {
    const holder = await keyHolder(ctx.input);
    const cat = await updateCatalogOfItem(holder, {
      catId: ctx.input.cat_id,
      name: ctx.input.cat_name.trim(),
      sNumber: ctx.input.s_number,
    });
    return catalogRow(cat);
  },

  async deleteAttachment(ctx) {
    const holder = await keyHolder(ctx.input);
    let sign = ctx.input.sign.trim();
    const url = ctx.input.file_url.trim();
    if (!sign && url) {
      try {
        sign = new URL(url, 'http://x').searchParams.get('sign') ?? '';
      } catch {
        sign = '';
      }
    }
    const fileId = await deleteItemFile(holder.actor, holder.itemId, {
      fileId: ctx.input.file_id,
      sign,
    });
    return { file_id: fileId };
  },

  async deleteCatalog(ctx) {
    const holder = await keyHolder(ctx.input);
    const catId = ctx.input.cat_id;
    await deleteCatalogOfItem(holder, catId);
    return { cat_id: catId };
  },

  async pushSpec(ctx) {
    return pushSpec(await keyHolder(ctx.input), ctx.input.spec);
  },
});

/** open/uploadAttachment: a multipart form, read by its own fields (no contract). */
const uploadAttachment: ActionHandler = async (ctx) => {
  if (!ctx.req.is('multipart/form-data'))
    throw errors.failed('Please send the file as multipart/form-data');
  const form = await receiveMultipart(ctx, {
    fileFields: ['file'],
    maxBytes: await uploadLimitBytes(),
    stagingDir: await fileStorage().stagingDir(),
  });
  try {
    const params = paramsWithForm(ctx, form.fields);
    const holder = await authenticateApiKey(
      params.str('api_key').trim(),
      params.str('api_token').trim(),
    );
    if (!form.file) throw errors.failed('Please upload a file');
    const file = await storeUpload(holder.actor, {
      target: { itemId: holder.itemId, pageId: params.int('page_id') },
      purpose: 'file',
      clientName: form.file.filename,
      staged: form.file,
    });
    return {
      url: fileUrl(await publicBaseUrl(ctx), file.sign),
      file_id: file.file_id,
      sign: file.sign,
    };
  } finally {
    if (form.file) await rm(form.file.path, { force: true });
  }
};

/** The declared actions, and those that read a multipart form or plain-text script input. */
export const openController = {
  name: 'open',
  actions: { ...declared.actions, fromComments, uploadAttachment },
};

/** ShowDoc's older names for the same calls. */
export const openAliasControllers = [
  defineController('item', { updateByApi: updatePage }),
  defineController('fromComments', { generate: fromComments }),
];
