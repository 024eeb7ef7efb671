/**
 * `open/*` (ShowDoc's OpenController) and its older names `item/updateByApi` and
 * `fromComments/generate`: scripts keep pages in sync with an item's `api_key` + `api_token`.
 * The rules live in models/transfer/; answers are shaped as ShowDoc's (`fromComments` answers
 * plain text, as ShowDoc's shell script expects).
 */
import { rm } from 'node:fs/promises';
import { deleteItemFile, storeUpload } from '../../models/files';
import { ApiError, fileStorage, formatUnix, isApiError } from '../../models/platform';
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
import type { ActionContext, ActionHandler } from '../registry';
import { defineController } from '../registry';
import { pageRow } from './pagePresent';
import { fileUrl } from './pageUpload';
import { paramsWithForm, publicBaseUrl, receiveMultipart, uploadLimitBytes } from '../uploads';

function keyHolder(ctx: ActionContext): Promise<KeyHolder> {
  return authenticateApiKey(ctx.params.str('api_key').trim(), ctx.params.str('api_token').trim());
}

const updatePage: ActionHandler = async (ctx) => {
  const holder = await keyHolder(ctx);
  const p = ctx.params;
  let catPath = p.str('cat_name');
  // ShowDoc's older scripts send the second level separately.
  if (p.str('cat_name_sub')) catPath = `${catPath}/${p.str('cat_name_sub')}`;
  const page = await savePageByTitle(holder, {
    title: p.str('page_title'),
    content: p.str('page_content'),
    catPath,
    sNumber: p.int('s_number', 99),
  });
  return pageRow(page, { times: 'raw' });
};

function text(ctx: ActionContext, body: string): void {
  ctx.res.type('text/plain; charset=utf-8').send(body);
}

const fromComments: ActionHandler = async (ctx) => {
  let holder: KeyHolder;
  try {
    holder = await keyHolder(ctx);
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

export const openController = defineController('open', {
  updatePage,
  updateItem: updatePage,
  fromComments,

  async getPage(ctx) {
    const holder = await keyHolder(ctx);
    const page = await pageOfItem(holder, ctx.params.int('page_id'), ctx.params.str('page_title'));
    return { ...pageRow(page, { times: 'raw' }), addtime: formatUnix(page.addtime) };
  },

  async deletePage(ctx) {
    const holder = await keyHolder(ctx);
    const pageId = ctx.params.int('page_id');
    await deletePageOfItem(holder, pageId);
    return { page_id: pageId };
  },

  async getCatalogTree(ctx) {
    return catalogTree(await keyHolder(ctx));
  },

  async createCatalog(ctx) {
    const holder = await keyHolder(ctx);
    const cat = await createCatalogOfItem(holder, {
      name: ctx.params.str('cat_name').trim(),
      parentCatId: ctx.params.int('parent_cat_id'),
      sNumber: ctx.params.int('s_number', 99),
    });
    return catalogRow(cat);
  },

  async updateCatalog(ctx) {
    const holder = await keyHolder(ctx);
    const cat = await updateCatalogOfItem(holder, {
      catId: ctx.params.int('cat_id'),
      name: ctx.params.str('cat_name').trim(),
      sNumber: ctx.params.int('s_number'),
    });
    return catalogRow(cat);
  },

  async uploadAttachment(ctx) {
    if (!ctx.req.is('multipart/form-data'))
      throw new ApiError(10101, 'Please send the file as multipart/form-data');
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
      if (!form.file) throw new ApiError(10101, 'Please upload a file');
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
  },

  async deleteAttachment(ctx) {
    const holder = await keyHolder(ctx);
    let sign = ctx.params.str('sign').trim();
    const url = ctx.params.str('file_url').trim();
    if (!sign && url) {
      try {
        sign = new URL(url, 'http://x').searchParams.get('sign') ?? '';
      } catch {
        sign = '';
      }
    }
    const fileId = await deleteItemFile(holder.actor, holder.itemId, {
      fileId: ctx.params.int('file_id'),
      sign,
    });
    return { file_id: fileId };
  },

  async deleteCatalog(ctx) {
    const holder = await keyHolder(ctx);
    const catId = ctx.params.int('cat_id');
    await deleteCatalogOfItem(holder, catId);
    return { cat_id: catId };
  },
});

/** ShowDoc's older names for the same calls. */
export const openAliasControllers = [
  defineController('item', { updateByApi: updatePage }),
  defineController('fromComments', { generate: fromComments }),
];
