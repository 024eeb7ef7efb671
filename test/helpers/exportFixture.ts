/**
 * The item the export suites (export/word, export/markdown, exportHtml/export) package: a
 * password-protected item with a catalog tree (Guide > Deep, API), a root page, an Install page
 * (content chosen by the suite), a draft that must never be exported, and an Endpoints page
 * showing an uploaded picture; `restricted` edits only the API catalog, `reader` reads all.
 */
import { addMember, makeItem, type MakeItemOptions } from './factories';
import { makeCatalog, makePage } from './pages';
import type { TestServer } from './server';
import { postMultipart, samples } from './uploads';
import type { TestUser } from './users';

export interface ExportedItem {
  itemId: number;
  guide: number;
  deep: number;
  api: number;
  installPage: number;
  endpointsPage: number;
  /** The PNG the Endpoints page shows. */
  picture: Buffer;
}

export async function makeExportedItem(
  server: TestServer,
  people: { owner: TestUser; restricted: TestUser; reader: TestUser },
  options: {
    item: MakeItemOptions;
    installContent: string;
    /** Upload the picture with the Install page's page_id (else for the item only). */
    pictureOnInstallPage?: boolean;
  },
): Promise<ExportedItem> {
  const { owner } = people;
  const { item_id: itemId } = await makeItem(owner, options.item);
  const guide = await makeCatalog(owner, itemId, 'Guide');
  const deep = await makeCatalog(owner, itemId, 'Deep', guide);
  const api = await makeCatalog(owner, itemId, 'API');
  await makePage(owner, itemId, { title: 'Welcome', content: '# Hello\n\nRoot **bold** text.' });
  const installPage = (
    await makePage(owner, itemId, {
      title: 'Install',
      catId: guide,
      content: options.installContent,
    })
  ).page_id;
  await makePage(owner, itemId, { title: 'Deeper', catId: deep, content: 'deep text' });
  await makePage(owner, itemId, {
    title: 'Draft page',
    catId: guide,
    content: 'secret draft',
    isDraft: 1,
  });
  const picture = samples.png();
  const image = await postMultipart(
    server.url,
    'page/uploadImg',
    [
      { name: 'item_id', value: String(itemId) },
      ...(options.pictureOnInstallPage ? [{ name: 'page_id', value: String(installPage) }] : []),
      { name: 'editormd-image-file', filename: 'shot.png', content: picture, type: 'image/png' },
    ],
    { query: { user_token: owner.user_token } },
  );
  const endpointsPage = (
    await makePage(owner, itemId, {
      title: 'Endpoints',
      catId: api,
      content: `Picture: ![shot](${String(image.body.url)})`,
    })
  ).page_id;
  await addMember(itemId, people.restricted, 1, [api]);
  await addMember(itemId, people.reader, 0);
  return { itemId, guide, deep, api, installPage, endpointsPage, picture };
}

/** GETs /api/<route> with the params (a download: the raw bytes, whatever the content type). */
export async function download(
  server: TestServer,
  route: string,
  params: Record<string, string | number>,
): Promise<{ response: Response; bytes: Uint8Array }> {
  const url = new URL(`/api/${route}`, server.url);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
  const response = await fetch(url);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes };
}
