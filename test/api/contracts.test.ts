/**
 * The declared REST contract (api/contracts/) against the running API: every registered action
 * has a contract (or a reason in the short allow-list below); each declared action, driven with a
 * valid request as a suitable user on a real item, answers `error_code: 0` with data its output
 * schema accepts, and with a parameter of the wrong shape (an object where a scalar belongs) the
 * 10101 envelope naming that parameter — before it changes anything.
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { findContract } from '../../api/contracts';
import { createControllerRegistry } from '../../api/routes';
import { apiSuite } from '../helpers/apiSuite';
import type { ApiParams } from '../helpers/client';
import { addTeamMember, bindTeamItem, makeItem, makeTeam } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { samples, uploadAs } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';

// The HTTP test relay may reach this machine only through its allow list (its valid request).
const suite = apiSuite({ item: {}, env: { HTTP_RELAY_ALLOW_HOSTS: '127.0.0.1' } });

/** Registered actions with no contract yet, and why (everything else must have one). */
const WITHOUT_CONTRACT: Record<string, string> = {
  'common/qrcode': 'answers a PNG, not an envelope',
  'common/showcaptcha': 'answers an image, not an envelope',
  'common/visitfile': 'streams the file',
  'attachment/visitfile': 'streams the file',
  'attachment/uploadimg': 'multipart upload',
  'attachment/attachmentupload': 'multipart upload',
  'page/upload': 'multipart upload',
  'page/uploadimg': 'multipart upload',
  'extlogin/oauth2': 'a browser redirect to the OAuth2 provider, not an envelope',
  'extlogin/bysecretkey': 'a browser redirect with a login code, not an envelope',
  'open/uploadattachment': 'multipart upload',
  'fromcomments/generate': 'answers plain text for a shell script, not an envelope',
  'open/fromcomments': 'answers plain text for a shell script, not an envelope',
  'export/word': 'a .docx download',
  'export/pdf': 'a PDF download',
  'export/openapi': 'an OpenAPI file download',
  'export/markdown': 'a zip download',
  'import/auto': 'multipart upload',
  'exporthtml/export': 'a zip download',
  'importpostman/import': 'multipart upload (import/auto)',
  'importswagger/import': 'multipart upload (import/auto)',
  'kanban/exportactivity': 'a CSV download',
};

interface Fixture {
  itemId: number;
  pageId: number;
  catId: number;
  teamId: number;
  teamMemberId: number;
  teamItemId: number;
  groupId: number;
  templateId: number;
  fileId: number;
  historyId: number;
  messageId: number;
  throwaway: TestUser;
}

type Who = 'owner' | 'editor' | 'reader' | 'anonymous' | 'throwaway';
interface Request {
  as?: Who;
  params?: (f: Fixture) => ApiParams | Promise<ApiParams>;
}

/** A fresh AI token of the owner (ai_token/*'s valid requests each use their own). */
async function aiTokenId(): Promise<number> {
  return (await suite.as(suite.owner).ok<{ id: number }>('ai_token/create', { name: 'fixture' }))
    .id;
}

/** A fresh webhook of the fixture item (to the server's own health check: allowed locally). */
async function webhookId(f: Fixture): Promise<number> {
  return (
    await suite.as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: f.itemId,
      url: `${suite.server.url}/healthz`,
    })
  ).id;
}

let kanbanItem: Promise<number> | undefined;
/** The owner's kanban item (made once, on the first kanban request). */
function kanbanItemId(): Promise<number> {
  kanbanItem ??= makeItem(suite.owner, { item_type: 6 }).then((item) => item.item_id);
  return kanbanItem;
}

/** A fresh list of the kanban item. */
async function kanbanList(): Promise<{ item_id: number; list_id: string }> {
  const item_id = await kanbanItemId();
  const added = await suite
    .as(suite.owner)
    .ok<{ list: { id: string } }>('kanban/addList', { item_id, title: 'Fixture list' });
  return { item_id, list_id: added.list.id };
}

/** A fresh task of the kanban item, in a fresh list. */
async function kanbanTask(): Promise<{ page_id: number; list_id: string }> {
  const list = await kanbanList();
  const task = await suite
    .as(suite.owner)
    .ok<{ page_id: number }>('kanban/addTask', { ...list, title: 'Fixture task' });
  return { page_id: task.page_id, list_id: list.list_id };
}

/** A fresh page with one open suggestion (made by the editor): its review parameters. */
async function suggestionOn(f: Fixture): Promise<ApiParams> {
  const page = await makePage(suite.owner, f.itemId, { content: 'A short text.' });
  const made = await suite.as(suite.editor).ok<{ suggestion_ids: number[] }>('suggestion/propose', {
    page_id: page.page_id,
    changes: JSON.stringify([
      { from: 2, old_text: 'short', new_text: 'long', before: 'A ', after: ' text.' },
    ]),
  });
  return { page_id: page.page_id, suggestion_ids: String(made.suggestion_ids[0]) };
}

/** A valid request per declared action (owner, no parameters unless given). */
const VALID: Record<string, Request> = {
  'user/login': { as: 'anonymous', params: () => ({ username: 'x', password: 'y' }) },
  'user/info': {},
  'user/updateinfo': { params: () => ({ name: 'Owner' }) },
  'user/alluser': { params: () => ({ username: 'u_' }) },
  'user/oauthinfo': { as: 'anonymous' },
  'user/getpushurl': {},
  'user/savepushurl': { params: () => ({ push_url: '' }) },
  'common/homepagesetting': { as: 'anonymous' },
  'common/version': { as: 'anonymous' },
  'common/createcaptcha': { as: 'anonymous' },
  'httprelay/send': { params: () => ({ url: `${suite.server.url}/healthz` }) },
  'item/add': { params: () => ({ item_name: 'Contract item' }) },
  'item/update': { params: (f) => ({ item_id: f.itemId, item_description: 'described' }) },
  'item/detail': { params: (f) => ({ item_id: f.itemId }) },
  'item/info': { as: 'reader', params: (f) => ({ item_id: f.itemId }) },
  'item/getitemid': { params: (f) => ({ item_id: f.itemId }) },
  'item/getkey': { params: (f) => ({ item_id: f.itemId }) },
  'item/resetkey': { params: (f) => ({ item_id: f.itemId }) },
  'item/getchangelog': { params: (f) => ({ item_id: f.itemId }) },
  'item/mylist': {},
  'item/star': { params: (f) => ({ item_id: f.itemId }) },
  'item/unstar': { params: (f) => ({ item_id: f.itemId }) },
  'item/sort': { params: (f) => ({ data: JSON.stringify({ [f.itemId]: 1 }) }) },
  'item/top': { params: (f) => ({ item_id: f.itemId, action: 'top' }) },
  'item/itemlist': {},
  'item/search': { params: (f) => ({ keyword: 'Body', item_id: f.itemId }) },
  'kanban/logevent': {
    params: async () => ({ item_id: await kanbanItemId(), event_type: 'task_updated' }),
  },
  'kanban/getactivity': { params: async () => ({ item_id: await kanbanItemId() }) },
  'kanban/board': { params: async () => ({ item_id: await kanbanItemId() }) },
  'kanban/task': { params: async () => ({ page_id: (await kanbanTask()).page_id }) },
  'kanban/addtask': { params: async () => ({ ...(await kanbanList()), title: 'Added' }) },
  'kanban/updatetask': {
    params: async () => ({ page_id: (await kanbanTask()).page_id, title: 'Renamed' }),
  },
  'kanban/movetask': { params: async () => kanbanTask() },
  'kanban/deletetask': { params: async () => ({ page_id: (await kanbanTask()).page_id }) },
  'kanban/addlist': { params: async () => ({ item_id: await kanbanItemId(), title: 'L' }) },
  'kanban/renamelist': { params: async () => ({ ...(await kanbanList()), title: 'R' }) },
  'kanban/movelist': { params: async () => ({ ...(await kanbanList()), index: 0 }) },
  'kanban/archivelist': { params: async () => kanbanList() },
  'kanban/restorelist': {
    params: async () => {
      const list = await kanbanList();
      await suite.as(suite.owner).ok('kanban/archiveList', list);
      return list;
    },
  },
  'kanban/deletelist': { params: async () => kanbanList() },
  'itemgroup/getlist': {},
  'itemgroup/save': { params: (f) => ({ group_name: 'G2', item_ids: String(f.itemId) }) },
  'itemgroup/savesort': {
    params: (f) => ({ groups: JSON.stringify([{ id: f.groupId, s_number: 1 }]) }),
  },
  'recycle/getlist': { params: (f) => ({ item_id: f.itemId }) },
  'template/save': { params: () => ({ template_title: 'T', template_content: 'x' }) },
  'template/getmylist': {},
  'template/getlist': {},
  'template/getitemlist': { params: (f) => ({ item_id: f.itemId }) },
  'template/sharetoitem': { params: (f) => ({ template_id: f.templateId, item_id: f.itemId }) },
  'template/getshareitemlist': { params: (f) => ({ template_id: f.templateId }) },
  'member/getlist': { params: (f) => ({ item_id: f.itemId }) },
  'member/getalllist': { params: (f) => ({ item_id: f.itemId }) },
  'member/getmyalllist': {},
  'team/getlist': {},
  'team/save': { params: () => ({ team_name: 'Another team' }) },
  'teammember/getlist': { params: (f) => ({ team_id: f.teamId }) },
  'teamitem/getlist': { params: (f) => ({ item_id: f.itemId }) },
  'teamitem/getlistbyteam': { params: (f) => ({ team_id: f.teamId }) },
  'teamitemmember/getlist': { params: (f) => ({ item_id: f.itemId, team_id: f.teamId }) },
  'message/getremindlist': {},
  'message/getannouncementlist': { params: () => ({ page: 1, count: 5 }) },
  'message/getunread': {},
  'message/setread': { params: (f) => ({ message_content_id: f.messageId }) },
  'catalog/catlist': { as: 'reader', params: (f) => ({ item_id: f.itemId }) },
  'catalog/catlistgroup': { params: (f) => ({ item_id: f.itemId }) },
  'catalog/catlistname': { params: (f) => ({ item_id: f.itemId }) },
  'catalog/getpagesbycat': { params: (f) => ({ item_id: f.itemId, cat_id: f.catId }) },
  'catalog/menuchildren': { as: 'reader', params: (f) => ({ item_id: f.itemId, cat_id: f.catId }) },
  'catalog/save': { as: 'editor', params: (f) => ({ item_id: f.itemId, cat_name: 'More' }) },
  'catalog/batupdate': {
    params: (f) => ({ item_id: f.itemId, cats: JSON.stringify([{ cat_id: f.catId }]) }),
  },
  'catalog/copy': { params: (f) => ({ cat_id: f.catId, to_item_id: f.itemId }) },
  'page/info': { as: 'reader', params: (f) => ({ page_id: f.pageId }) },
  'page/save': {
    as: 'editor',
    params: (f) => ({
      item_id: f.itemId,
      page_id: f.pageId,
      page_title: 'Contract page',
      page_content: 'new text',
    }),
  },
  'page/createsinglepage': {
    params: (f) => ({ page_id: f.pageId, isCreateSiglePage: 'true' }),
  },
  'page/infobykey': {
    as: 'anonymous',
    params: async (f) => {
      const link = await suite
        .as(suite.owner)
        .call('page/createSinglePage', { page_id: f.pageId, isCreateSiglePage: 'true' });
      return { unique_key: (link.body.data as { unique_key: string }).unique_key };
    },
  },
  'page/getpageid': { params: (f) => ({ page_id: f.pageId }) },
  'page/sort': { params: (f) => ({ item_id: f.itemId, pages: JSON.stringify({ [f.pageId]: 1 }) }) },
  'page/history': { params: (f) => ({ page_id: f.pageId }) },
  'page/updatehistorycomments': {
    params: (f) => ({ page_id: f.pageId, page_history_id: f.historyId, page_comments: 'c' }),
  },
  'page/sqltomarkdowntable': { params: () => ({ sql: 'CREATE TABLE t (id int)' }) },
  'page/islock': { params: (f) => ({ page_id: f.pageId }) },
  'page/setlock': { as: 'editor', params: (f) => ({ page_id: f.pageId, item_id: f.itemId }) },
  'page/uploadlist': { as: 'reader', params: (f) => ({ page_id: f.pageId }) },
  'item/getaiconfig': { params: (f) => ({ item_id: f.itemId }) },
  'item/setaiconfig': { params: (f) => ({ item_id: f.itemId, welcome_message: 'Ask away' }) },
  'agent/config': { params: (f) => ({ item_id: f.itemId }) },
  'agent/sessionlist': {},
  'aitoken/list': {},
  'aitoken/create': { params: () => ({ name: 'contract-bot', permission: 'read' }) },
  'aitoken/detail': { params: async () => ({ id: await aiTokenId() }) },
  'aitoken/update': { params: async () => ({ id: await aiTokenId(), name: 'renamed' }) },
  'aitoken/reset': { params: async () => ({ id: await aiTokenId() }) },
  'aitoken/revoke': { params: async () => ({ id: await aiTokenId() }) },
  'aitoken/delete': { params: async () => ({ id: await aiTokenId() }) },
  'aitoken/availableitems': {},
  'update/checkdb': {},
  'publicsquare/checkenabled': { as: 'anonymous' },
  'subscription/getpagelist': { params: (f) => ({ page_id: f.pageId }) },
  'subscription/savepage': {
    params: (f) => ({ page_id: f.pageId, uids: String(suite.editor.uid) }),
  },
  'subscription/deletepage': {
    params: (f) => ({ page_id: f.pageId, uids: String(suite.editor.uid) }),
  },
  'read/mark': { as: 'reader', params: (f) => ({ item_id: f.itemId, page_ids: f.pageId }) },
  'read/markall': { as: 'reader', params: (f) => ({ item_id: f.itemId }) },
  'read/changes': { as: 'reader', params: (f) => ({ page_id: f.pageId }) },
  'read/itemcounts': { as: 'reader' },
  'adminmessage/addannouncement': {
    as: 'throwaway',
    params: () => ({ message_content: 'Maintenance tonight' }),
  },
  'adminmessage/listannouncements': { as: 'throwaway' },
  'pagecomment/getlist': { as: 'reader', params: (f) => ({ page_id: f.pageId }) },
  'pagecomment/add': { as: 'reader', params: (f) => ({ page_id: f.pageId, content: 'Nice' }) },
  'pagefeedback/getstat': { as: 'reader', params: (f) => ({ page_id: f.pageId }) },
  'pagefeedback/submit': {
    as: 'reader',
    params: (f) => ({ page_id: f.pageId, feedback_type: 1 }),
  },
  'mock/add': { as: 'editor', params: (f) => ({ page_id: f.pageId, template: '{"a":1}' }) },
  'mock/infobypageid': { params: (f) => ({ page_id: f.pageId }) },
  'export/checkmarkdownlimit': {},
  'open/updatepage': {
    as: 'anonymous',
    params: async (f) => ({
      ...(await apiKey(f)),
      cat_name: 'Scripts',
      page_title: 'By script',
      page_content: 'x',
    }),
  },
  'open/updateitem': {
    as: 'anonymous',
    params: async (f) => ({ ...(await apiKey(f)), page_title: 'By script', page_content: 'y' }),
  },
  'item/updatebyapi': {
    as: 'anonymous',
    params: async (f) => ({ ...(await apiKey(f)), page_title: 'By script', page_content: 'z' }),
  },
  'open/getpage': {
    as: 'anonymous',
    params: async (f) => ({ ...(await apiKey(f)), page_id: f.pageId }),
  },
  'open/getcatalogtree': { as: 'anonymous', params: (f) => apiKey(f) },
  'open/createcatalog': {
    as: 'anonymous',
    params: async (f) => ({ ...(await apiKey(f)), cat_name: 'Made' }),
  },
  'open/updatecatalog': {
    as: 'anonymous',
    params: async (f) => ({ ...(await apiKey(f)), cat_id: f.catId, cat_name: 'Guides' }),
  },
  'page/diff': { params: (f) => ({ page_id: f.pageId, page_history_id: f.historyId }) },
  'attachment/getmylist': {},
  'attachment/getalllist': { as: 'throwaway' },
  'attachment/getunusedlist': { as: 'throwaway' },
  'attachment/bindingpage': { params: (f) => ({ file_id: f.fileId, page_id: f.pageId }) },
  'attachment/pageattachmentuploadlist': { params: (f) => ({ page_id: f.pageId }) },
  // Destructive ones last, each on something of its own.
  'attachment/deletepageuploadfile': {
    params: async (f) => ({ page_id: f.pageId, file_id: (await upload(f.pageId)).file_id }),
  },
  'page/deleteuploadfile': {
    params: async (f) => ({ page_id: f.pageId, file_id: (await upload(f.pageId)).file_id }),
  },
  'attachment/deletemyattachment': {
    params: async (f) => ({ file_id: (await upload(f.pageId)).file_id }),
  },
  'attachment/batchdeleteattachments': {
    as: 'throwaway',
    params: async (f) => ({ file_ids: String((await upload(f.pageId)).file_id) }),
  },
  'attachment/deleteattachment': {
    as: 'throwaway',
    params: async (f) => ({ file_id: (await upload(f.pageId)).file_id }),
  },
  'item/archive': {
    params: async () => ({ item_id: await ownItem(), password: suite.owner.password }),
  },
  'item/attorn': {
    params: async () => ({
      item_id: await ownItem(),
      username: suite.editor.username,
      password: suite.owner.password,
    }),
  },
  'item/delete': {
    params: async () => ({ item_id: await ownItem(), password: suite.owner.password }),
  },
  'item/exititem': { as: 'editor', params: async () => ({ item_id: await ownItem(true) }) },
  'itemgroup/delete': { params: (f) => ({ id: f.groupId }) },
  'template/delete': { params: (f) => ({ id: f.templateId }) },
  'member/save': {
    params: async (f) => ({ item_id: f.itemId, username: (await makeUser()).username }),
  },
  'member/delete': {
    params: async (f) => {
      const user = await makeUser();
      const saved = await suite
        .as(suite.owner)
        .call('member/save', { item_id: f.itemId, username: user.username });
      return { item_id: f.itemId, item_member_id: (saved.body.data as { id: number }).id };
    },
  },
  'teammember/save': {
    params: async (f) => ({ team_id: f.teamId, member_username: (await makeUser()).username }),
  },
  'teammember/delete': { params: (f) => ({ id: f.teamMemberId }) },
  'teamitemmember/save': {
    params: async (f) => {
      const list = await suite
        .as(suite.owner)
        .call('teamItemMember/getList', { item_id: f.itemId, team_id: f.teamId });
      return { id: (list.body.data as { id: string }[])[0]?.id ?? 0, member_group_id: 1 };
    },
  },
  'teamitem/save': {
    params: async (f) => ({ team_id: f.teamId, item_id: await ownItem() }),
  },
  'teamitem/delete': { params: (f) => ({ id: f.teamItemId }) },
  'team/attorn': {
    params: async () => ({
      team_id: (await makeTeam(suite.owner)).team_id,
      username: suite.editor.username,
      password: suite.owner.password,
    }),
  },
  'team/exitteam': {
    as: 'editor',
    params: async () => {
      const { team_id } = await makeTeam(suite.owner);
      await addTeamMember(team_id, suite.editor);
      return { id: team_id };
    },
  },
  'team/delete': { params: async () => ({ id: (await makeTeam(suite.owner)).team_id }) },
  'suggestion/list': { as: 'reader', params: (f) => ({ page_id: f.pageId }) },
  'suggestion/propose': {
    as: 'editor',
    params: async (f) => ({
      page_id: (await makePage(suite.owner, f.itemId, { content: 'A short text.' })).page_id,
      changes: JSON.stringify([
        { from: 2, old_text: 'short', new_text: 'long', before: 'A ', after: ' text.' },
      ]),
    }),
  },
  'suggestion/accept': { params: (f) => suggestionOn(f) },
  'suggestion/reject': { params: (f) => suggestionOn(f) },
  'pagecomment/delete': {
    params: async (f) => {
      const added = await suite
        .as(suite.owner)
        .call('pagecomment/add', { page_id: f.pageId, content: 'To remove' });
      return { comment_id: (added.body.data as { comment_id: number }).comment_id };
    },
  },
  'message/delete': { params: (f) => ({ message_content_id: f.messageId }) },
  'catalog/delete': {
    params: async (f) => ({ cat_id: await makeCatalog(suite.owner, f.itemId, 'Gone') }),
  },
  'open/deletepage': {
    as: 'anonymous',
    params: async (f) => ({
      ...(await apiKey(f)),
      page_id: (await makePage(suite.owner, f.itemId)).page_id,
    }),
  },
  'open/deletecatalog': {
    as: 'anonymous',
    params: async (f) => ({
      ...(await apiKey(f)),
      cat_id: await makeCatalog(suite.owner, f.itemId, 'Old'),
    }),
  },
  'open/deleteattachment': {
    as: 'anonymous',
    params: async (f) => ({ ...(await apiKey(f)), file_id: (await upload(f.pageId)).file_id }),
  },
  'page/delete': {
    params: async (f) => ({ page_id: (await makePage(suite.owner, f.itemId)).page_id }),
  },
  'recycle/recover': {
    params: async (f) => {
      const { page_id } = await makePage(suite.owner, f.itemId);
      await suite.as(suite.owner).call('page/delete', { page_id });
      return { item_id: f.itemId, page_id };
    },
  },
  'adminuser/getlist': { as: 'throwaway' },
  'adminuser/adduser': {
    as: 'throwaway',
    params: () => ({ username: `added_${Date.now()}`, password: 'a-Passw0rd-1' }),
  },
  'adminuser/deleteuser': {
    as: 'throwaway',
    params: async () => ({ uid: (await makeUser()).uid }),
  },
  'adminitem/getlist': { as: 'throwaway' },
  'adminitem/attorn': {
    as: 'throwaway',
    params: async () => ({ item_id: await ownItem(), username: suite.editor.username }),
  },
  'adminitem/recoveritem': {
    as: 'throwaway',
    params: async () => {
      const item_id = await ownItem();
      await suite.as(suite.owner).call('item/delete', { item_id, password: suite.owner.password });
      return { item_id };
    },
  },
  'adminitem/harddeleteitem': {
    as: 'throwaway',
    params: async () => {
      const item_id = await ownItem();
      await suite.as(suite.owner).call('item/delete', { item_id, password: suite.owner.password });
      return { item_id };
    },
  },
  'adminitem/deleteitem': { as: 'throwaway', params: async () => ({ item_id: await ownItem() }) },
  'adminsetting/loadconfig': { as: 'throwaway' },
  'adminsetting/saveconfig': { as: 'throwaway' },
  'adminsetting/loadldapconfig': { as: 'throwaway' },
  'adminsetting/saveldapconfig': {
    as: 'throwaway',
    params: () => ({ ldap_open: 0, ldap_form: '{}' }),
  },
  'adminsetting/loadoauth2config': { as: 'throwaway' },
  'adminsetting/saveoauth2config': {
    as: 'throwaway',
    params: () => ({ oauth2_open: 0, oauth2_form: '{}' }),
  },
  'adminsetting/getloginsecretkey': { as: 'throwaway' },
  'adminsetting/resetloginsecretkey': { as: 'throwaway' },
  'user/register': {
    as: 'anonymous',
    params: () => ({ username: 'x', password: 'y', confirm_password: 'y' }),
  },
  'user/resetpassword': {
    as: 'throwaway',
    params: (f) => ({ password: f.throwaway.password, new_password: 'a-new-Passw0rd' }),
  },
  'user/logout': { as: 'throwaway' },
};

/** The API workbench's actions (runapi, itemVariable, flow, paramDescLib, ping). */
const WORKBENCH_VALID: Record<string, Request> = {
  'ping/index': { as: 'anonymous' },
  'runapi/addenv': { params: (f) => ({ item_id: f.itemId, env_name: 'Contract env' }) },
  'runapi/updateenv': {
    params: async (f) => ({ item_id: f.itemId, env_id: await newEnv(f), env_name: 'Renamed' }),
  },
  'runapi/getenvlist': { params: (f) => ({ item_id: f.itemId }) },
  'runapi/delenv': { params: async (f) => ({ env_id: await newEnv(f) }) },
  'runapi/selectenv': { params: async (f) => ({ env_id: await newEnv(f) }) },
  'runapi/getselectenv': { params: (f) => ({ item_id: f.itemId }) },
  'runapi/getglobalparam': { params: (f) => ({ item_id: f.itemId }) },
  'runapi/updateglobalparam': {
    params: (f) => ({ item_id: f.itemId, param_type: 'query', content_json_str: '[]' }),
  },
  'runapi/getdbconfiglist': {
    params: async (f) => ({ item_id: f.itemId, env_id: await newEnv(f) }),
  },
  'runapi/savedbconfig': { params: async (f) => ({ item_id: f.itemId, env_id: await newEnv(f) }) },
  'runapi/deldbconfig': {
    params: async (f) => {
      const saved = await suite
        .as(suite.owner)
        .call('runapi/saveDbConfig', { item_id: f.itemId, env_id: await newEnv(f) });
      return { config_id: (saved.body.data as { config_id: number }).config_id };
    },
  },
  'itemvariable/save': { params: (f) => ({ item_id: f.itemId, var_name: 'v', var_value: '1' }) },
  'itemvariable/getlist': { params: (f) => ({ item_id: f.itemId }) },
  'itemvariable/delete': {
    params: async (f) => {
      const saved = await suite
        .as(suite.owner)
        .call('itemVariable/save', { item_id: f.itemId, var_name: 'gone', var_value: '1' });
      return { item_id: f.itemId, id: saved.body.data as number };
    },
  },
  'itemvariable/deletebyname': {
    params: async (f) => {
      await suite
        .as(suite.owner)
        .call('itemVariable/save', { item_id: f.itemId, var_name: 'byname', var_value: '1' });
      return { item_id: f.itemId, var_name: 'byname' };
    },
  },
  'flow/save': { params: (f) => ({ item_id: f.itemId, flow_name: 'Contract flow' }) },
  'flow/getlist': { params: (f) => ({ item_id: f.itemId }) },
  'flow/delete': { params: async (f) => ({ id: (await newFlow(f)).flowId }) },
  'flow/addflowpage': {
    params: async (f) => ({ flow_id: (await newFlow(f)).flowId, page_id: f.pageId }),
  },
  'flow/deleteflowpage': { params: async (f) => ({ id: (await newFlow(f)).stepId }) },
  'flow/getflowpagelist': { params: async (f) => ({ flow_id: (await newFlow(f)).flowId }) },
  'flow/savesort': {
    params: async (f) => {
      const { flowId, stepId } = await newFlow(f);
      return { flow_id: flowId, orders: JSON.stringify([{ id: stepId, s_number: 3 }]) };
    },
  },
  'flow/setflowpageenabled': {
    params: async (f) => {
      const { flowId, stepId } = await newFlow(f);
      return { flow_id: flowId, ids: JSON.stringify([stepId]) };
    },
  },
  'flow/setflowpageextract': {
    params: async (f) => ({
      id: (await newFlow(f)).stepId,
      extract: JSON.stringify([{ var: 'x', path: '$.x' }]),
    }),
  },
  'flow/run': {
    params: async (f) => {
      const page = await makePage(suite.owner, f.itemId, {
        content: JSON.stringify({ info: { method: 'GET', url: `${suite.server.url}/healthz` } }),
      });
      return { flow_id: (await newFlow(f, page.page_id)).flowId };
    },
  },
  'paramdesclib/getentries': { params: (f) => ({ itemId: f.itemId }) },
  'paramdesclib/addentry': { params: (f) => ({ itemId: f.itemId, name: 'n1', description: 'D' }) },
  'paramdesclib/addtempentry': {
    params: (f) => ({ itemId: f.itemId, name: 'n2', description: 'D' }),
  },
  'paramdesclib/temp': { params: (f) => ({ itemId: f.itemId, name: 'n3', description: 'D' }) },
  'paramdesclib/updateentry': { params: async (f) => ({ id: await newEntry(f), example: 'e' }) },
  'paramdesclib/deleteentry': { params: async (f) => ({ id: await newEntry(f) }) },
  'apicontract/info': { params: (f) => ({ item_id: f.itemId }) },
  'apicontract/unfollow': { params: (f) => ({ item_id: f.itemId }) },
  'apicontract/mark': { as: 'reader', params: (f) => ({ page_id: f.pageId }) },
  'webhook/list': { params: (f) => ({ item_id: f.itemId }) },
  'webhook/save': { params: (f) => ({ item_id: f.itemId, url: `${suite.server.url}/healthz` }) },
  'webhook/delete': { params: async (f) => ({ item_id: f.itemId, id: await webhookId(f) }) },
  'webhook/test': { params: async (f) => ({ item_id: f.itemId, id: await webhookId(f) }) },
  'webhook/deliveries': { params: async (f) => ({ item_id: f.itemId, id: await webhookId(f) }) },
  'webhook/rotatesecret': { params: async (f) => ({ item_id: f.itemId, id: await webhookId(f) }) },
  'webhook/redeliver': {
    params: async (f) => {
      const id = await webhookId(f);
      const sent = await suite
        .as(suite.owner)
        .ok<{ delivery_id: number }>('webhook/test', { item_id: f.itemId, id });
      return { item_id: f.itemId, delivery_id: sent.delivery_id };
    },
  },
  'paramdesclib/deleteentries': { params: async (f) => ({ ids: await newEntry(f) }) },
  'paramdesclib/promotetemp': { params: async (f) => ({ ids: await newEntry(f, 'temp') }) },
  'paramdesclib/addbatchentries': {
    params: (f) => ({
      entries: JSON.stringify([{ itemId: f.itemId, name: 'b1', type: 'string', description: 'B' }]),
    }),
  },
  'paramdesclib/confirmimport': {
    params: (f) => ({
      entries: JSON.stringify([{ itemId: f.itemId, name: 'c1', type: 'string', description: 'C' }]),
    }),
  },
  'paramdesclib/batchsave': {
    params: (f) => ({
      itemId: f.itemId,
      entries: JSON.stringify([{ name: 's1', type: 'string', description: 'S' }]),
    }),
  },
  'paramdesclib/updateusage': { params: async (f) => ({ id: await newEntry(f) }) },
  'paramdesclib/stats': { params: (f) => ({ itemId: f.itemId }) },
  'paramdesclib/import': { params: (f) => ({ itemId: f.itemId, format: 'kv', rawText: 'a: b' }) },
  'paramdesclib/export': { params: (f) => ({ itemId: f.itemId }) },
};

Object.assign(VALID, WORKBENCH_VALID);

let workbenchCount = 0;

async function newEnv(f: Fixture): Promise<number> {
  const added = await suite
    .as(suite.owner)
    .call('runapi/addEnv', { item_id: f.itemId, env_name: `Env ${++workbenchCount}` });
  return (added.body.data as { env_id: number }).env_id;
}

/** A flow of the fixture item with one step (the given page, else the fixture page). */
async function newFlow(f: Fixture, pageId = f.pageId): Promise<{ flowId: number; stepId: number }> {
  const owner = suite.as(suite.owner);
  const flow = await owner.call('flow/save', { item_id: f.itemId, flow_name: 'F' });
  const flowId = (flow.body.data as { id: number }).id;
  const step = await owner.call('flow/addFlowPage', { flow_id: flowId, page_id: pageId });
  return { flowId, stepId: (step.body.data as { id: number }).id };
}

async function newEntry(f: Fixture, status = 'permanent'): Promise<string> {
  const added = await suite.as(suite.owner).call('paramDescLib/addEntry', {
    itemId: f.itemId,
    name: `entry${++workbenchCount}`,
    description: 'D',
    status,
  });
  return (added.body.data as { id: string }).id;
}

/** Declared actions whose valid request cannot succeed here, and why. */
const NO_VALID_REQUEST: Record<string, string> = {
  'apicontract/follow':
    'starts fetching the URL on a schedule: test/api/contractSync.test.ts serves one locally',
  'apicontract/check': 'fetches the followed URL: test/api/contractSync.test.ts serves one locally',
  'open/pushspec': "needs the item's open API key and token (test/api/contractSync.test.ts)",
  'ai/create': 'answers a server-sent event stream, not an envelope (test/api/ai.test.ts)',
  'user/login': 'needs a captcha answer read from an image',
  'user/loginbyverify': 'needs a captcha answer read from an image',
  'user/register': 'needs a captcha answer read from an image',
  'item/pwd': 'needs a captcha answer read from an image (covered by item.test.ts)',
  'adminuser/ban': 'missing from ShowDoc open source: always refuses',
  'adminuser/loginlog': 'missing from ShowDoc open source: always refuses',
  'adminitem/addkeyword': 'missing from ShowDoc open source: always refuses',
  'adminitem/ban': 'missing from ShowDoc open source: always refuses',
  'adminitem/white': 'missing from ShowDoc open source: always refuses',
  'adminitem/recommenditem': 'missing from ShowDoc open source: always refuses',
  'adminitem/deleterecommend': 'missing from ShowDoc open source: always refuses',
  'adminitem/getvisitlist': 'missing from ShowDoc open source: always refuses',
  'adminsetting/loadoauth': 'missing from ShowDoc open source: always refuses',
  'adminsetting/saveoauth': 'missing from ShowDoc open source: always refuses',
  'adminsetting/testaiservice': 'no AI service in this edition: always refuses',
  'adminupdate/download': 'self-update is refused',
  'adminsetting/syncldapusers': 'needs an LDAP directory (test/api/ldap.test.ts runs slapd)',
  'adminupdate/updatefiles': 'self-update is refused',
  'adminupdate/checkupdate': 'asks the release server over the network (none in tests)',
  'extlogin/redeem': 'needs a code from an OAuth2 or secret-key login (test/api/extLogin.test.ts)',
  'user/registerbyverify': 'needs a captcha answer read from an image',
  'agent/sessionload': 'needs an AI service: test/api/agent.test.ts drives it against a stub',
  'agent/sessionnew': 'needs an AI service: test/api/agent.test.ts drives it against a stub',
  'agent/agent': 'answers a server-sent-event stream (test/api/agent.test.ts)',
  'agent/sessionreset': 'needs a session, which needs an AI service (test/api/agent.test.ts)',
  'agent/sessiondelete': 'needs a session, which needs an AI service (test/api/agent.test.ts)',
  'agent/agentcancel': 'needs a session, which needs an AI service (test/api/agent.test.ts)',
  'agent/feedback': 'needs an answer, which needs an AI service (test/api/agent.test.ts)',
  'scriptcron/run': 'scheduled jobs are refused over HTTP (403)',
  'publicsquare/getpublicitems': 'the public square is not enabled',
};

/** The item's current api_key and api_token (item/resetKey runs among the requests). */
async function apiKey(f: Fixture): Promise<ApiParams> {
  const answer = await suite.as(suite.owner).call('item/getKey', { item_id: f.itemId });
  const { api_key, api_token } = answer.body.data as { api_key: string; api_token: string };
  return { api_key, api_token };
}

async function upload(pageId: number) {
  return uploadAs(suite.server.url, suite.owner, 'notes.txt', samples.text(), {
    page_id: pageId,
  });
}

/** A fresh item of the owner's (with `editor` as a member when asked). */
async function ownItem(withEditor = false): Promise<number> {
  const { item_id } = await makeItem(suite.owner);
  if (withEditor)
    await suite.as(suite.owner).call('member/save', {
      item_id,
      username: suite.editor.username,
      member_group_id: 1,
    });
  return item_id;
}

async function fixture(): Promise<Fixture> {
  const owner = suite.as(suite.owner);
  const itemId = suite.itemId;
  await owner.call('item/update', { item_id: itemId, allow_comment: 1, allow_feedback: 1 });
  const catId = await makeCatalog(suite.owner, itemId, 'Guides');
  const page = await makePage(suite.owner, itemId, { catId });
  await owner.call('page/save', {
    item_id: itemId,
    page_id: page.page_id,
    page_title: 'Contract page',
    page_content: 'second version',
    is_notify: 1,
    notify_content: 'please read',
  });
  const history = await owner.call('page/history', { page_id: page.page_id });
  const team = await makeTeam(suite.owner);
  const teamMemberId = await addTeamMember(team.team_id, await makeUser());
  const teamItemId = await bindTeamItem(team.team_id, itemId, suite.owner);
  const group = await owner.call('itemGroup/save', { group_name: 'G', item_ids: String(itemId) });
  const template = await owner.call('template/save', {
    template_title: 'Tpl',
    template_content: 'x',
  });
  const file = await upload(page.page_id);
  const throwaway = await makeUser({ admin: true });
  // The editor's save notifies the owner: a reminder to read and delete.
  await suite.as(suite.editor).call('page/save', {
    item_id: itemId,
    page_id: page.page_id,
    page_title: 'Contract page',
    page_content: 'third version',
    is_notify: 1,
    notify_content: 'look',
  });
  const reminders = await owner.call('message/getRemindList');
  const reminder = (reminders.body.data as { list: { message_content_id: string }[] }).list[0];
  return {
    itemId,
    pageId: page.page_id,
    catId,
    teamId: team.team_id,
    teamMemberId,
    teamItemId,
    groupId: Number((group.body.data as { id: number | string }).id),
    templateId: Number((template.body.data as { id: number }).id),
    fileId: file.file_id,
    historyId: Number((history.body.data as { page_history_id: string }[])[0]?.page_history_id),
    messageId: Number(reminder?.message_content_id ?? 0),
    throwaway,
  };
}

function client(who: Who, f: Fixture) {
  if (who === 'anonymous') return suite.server.api;
  if (who === 'throwaway') return suite.as(f.throwaway);
  return suite.as(suite[who]);
}

const WRONG_SHAPE = { $ne: '' };

/** The first declared parameter that must be a scalar (or a list), to send in the wrong shape. */
function firstParam(schema: z.ZodType): string | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  return Object.keys(schema.shape).find(
    (name) => !schema.safeParse({ [name]: WRONG_SHAPE }).success,
  );
}

const routes = createControllerRegistry().routes();
const declared = routes.filter((route) => findContract(...(route.split('/') as [string, string])));

describe('the declared REST contract', () => {
  it('declares every registered action but the listed ones', () => {
    const missing = routes.filter(
      (route) => !declared.includes(route) && !(route in WITHOUT_CONTRACT),
    );
    expect(missing).toEqual([]);
    // The allow-list names real actions, and none of them is declared after all.
    for (const route of Object.keys(WITHOUT_CONTRACT)) {
      expect(routes).toContain(route);
      expect(declared).not.toContain(route);
    }
  });

  it('accepts every declared action with no parameters at all (ShowDoc: optional means optional)', () => {
    const refused = declared.filter(
      (route) =>
        !findContract(...(route.split('/') as [string, string]))!.input.safeParse({}).success,
    );
    expect(refused).toEqual([]);
  });

  it('has a valid request for every declared action (or a reason why not)', () => {
    const without = declared.filter((route) => !(route in VALID) && !(route in NO_VALID_REQUEST));
    expect(without).toEqual([]);
  });

  it('answers each valid request with data its output schema accepts', async () => {
    const f = await fixture();
    const failures: string[] = [];
    for (const [route, request] of Object.entries(VALID)) {
      if (route in NO_VALID_REQUEST) continue;
      const contract = findContract(...(route.split('/') as [string, string]));
      if (!contract) {
        failures.push(`${route}: no contract`);
        continue;
      }
      const params = (await request.params?.(f)) ?? {};
      const answer = await client(request.as ?? 'owner', f).call(route, params);
      if (answer.body.error_code !== 0) {
        failures.push(`${route}: ${answer.body.error_code} ${answer.body.error_message}`);
        continue;
      }
      const parsed = contract.output.safeParse(answer.body.data);
      if (!parsed.success)
        failures.push(`${route}: ${JSON.stringify(parsed.error.issues.slice(0, 2))}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers a parameter of the wrong shape with 10101 naming it', async () => {
    const owner = suite.as(suite.owner);
    const failures: string[] = [];
    for (const route of declared) {
      const contract = findContract(...(route.split('/') as [string, string]));
      const name = contract && firstParam(contract.input);
      if (!name) continue;
      const answer = await owner.call(route, { [name]: WRONG_SHAPE }, { json: true });
      if (
        answer.body.error_code !== 10101 ||
        answer.body.error_message !== `Invalid parameter: ${name}`
      )
        failures.push(`${route}: ${answer.body.error_code} ${answer.body.error_message}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers actions without parameters that need a login with 10102 when logged out', async () => {
    const publicOnes = new Set([
      'update/checkdb',
      'scriptcron/run',
      'publicsquare/checkenabled',
      'publicsquare/getpublicitems',
      'user/logout',
      'user/oauthinfo',
      'common/homepagesetting',
      'common/version',
      'common/createcaptcha',
      // ShowDoc answers it without a login, and its back office asks it without a token.
      'adminupdate/checkupdate',
      'ping/index',
    ]);
    const failures: string[] = [];
    for (const route of declared) {
      const contract = findContract(...(route.split('/') as [string, string]));
      const shape = contract?.input instanceof z.ZodObject ? contract.input.shape : {};
      if (!contract || Object.keys(shape).length || publicOnes.has(route)) continue;
      const answer = await suite.server.api.call(route);
      if (answer.body.error_code !== 10102)
        failures.push(`${route}: ${answer.body.error_code} ${answer.body.error_message}`);
    }
    expect(failures).toEqual([]);
  });
});
