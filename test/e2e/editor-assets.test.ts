/**
 * The editor's asset tools in a real browser (spec 001 §2, §5, §6): the API and database doc
 * templates, "save to template" from the Save menu, the template list (insert, share to another
 * item — seen under that item's project templates — and delete), attachments (upload from disk,
 * count badge, insert as a picture, delete with confirmation), the file hub (bind an own upload),
 * the page's notify list, the Chinese-only tools, and what a non-manager editor is not offered.
 * Everything is checked in the database as well; no console errors anywhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { setSetting } from '../../models/settings/settings';
import { FilePage } from '../../models/files/schemas/filePage';
import { Subscription } from '../../models/notices/schemas/subscription';
import { Template } from '../../models/templates/schemas/template';
import { TemplateItem } from '../../models/templates/schemas/templateItem';
import { UploadFile } from '../../models/files/schemas/uploadFile';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { postMultipart, samples } from '../helpers/uploads';
import { makeUser, type TestUser } from '../helpers/users';
import { editedItem, editorText, openEditor, pasteInto } from './editorHelpers';
import { browserSuite, screenshot } from './helpers';
import { eventually } from './readerFixture';

let owner: TestUser, editor: TestUser;
let subscriber: TestUser;
let docsId: number;
let otherId: number;
let workDir: string;

const suite = browserSuite({
  setup: async () => {
    ({ owner, editor, itemId: docsId } = await editedItem('Docs'));
    subscriber = await makeUser({ name: 'Sam Subscriber' });
    otherId = (await makeItem(owner, { item_name: 'Other project' })).item_id;
    await addMember(docsId, subscriber, 0);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-editor-assets-'));
  },
  teardown: () => {
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  },
  timeoutMs: 240_000,
});

/** A fresh page of `itemId` opened in the editor by `user`. */
async function editFreshPage(
  user: TestUser,
  itemId = docsId,
  content = '# Notes\n\nFirst line.\n',
): Promise<{ page: Page; pageId: number }> {
  const made = await makePage(owner, itemId, { content });
  const page = await openEditor(suite, user, itemId, made.page_id);
  return { page, pageId: made.page_id };
}

async function editorContains(page: Page, text: string): Promise<void> {
  await eventually(async () => (await editorText(page)).includes(text), true);
}

async function openTemplateMenu(page: Page): Promise<void> {
  await page.locator('[data-testid="editor-tool-templates"]').click();
}

async function openMoreTemplates(page: Page) {
  await openTemplateMenu(page);
  await page.locator('[data-testid="template-more"]').click();
  const dialog = page.locator('.ant-modal', {
    has: page.locator('[data-testid="templates-dialog"]'),
  });
  await dialog.waitFor();
  return dialog;
}

function templateRow(scope: ReturnType<Page['locator']>, title: string) {
  return scope.locator(`[data-testid="template-row"][data-title="${title}"]`);
}

/** Clicks the OK button of the visible pop-up confirmation. */
async function confirmPopup(page: Page, label: string): Promise<void> {
  await page
    .locator('.ant-popover:not(.ant-popover-hidden)')
    .getByRole('button', { name: label })
    .click();
}

async function openAttachments(page: Page) {
  await page.locator('[data-testid="editor-tool-attachments"]').click();
  const dialog = page.locator('.ant-modal', {
    has: page.locator('[data-testid="editor-attachments-dialog"]'),
  });
  await dialog.waitFor();
  return dialog;
}

async function closeDialog(dialog: ReturnType<Page['locator']>): Promise<void> {
  await dialog.locator('.ant-modal-close').click();
  await dialog.waitFor({ state: 'hidden' });
}

function badge(page: Page, count: number) {
  return page.locator(`[data-testid="editor-tool-attachments"][data-count="${count}"]`);
}

test('the API and database doc templates insert their Markdown at the cursor', async () => {
  const { page } = await editFreshPage(owner);
  await openTemplateMenu(page);
  await page.locator('[data-testid="template-api"]').click();
  await editorContains(page, '##### Brief description');
  const text = await editorText(page);
  for (const part of ['##### Request URL', '|username |yes |string |', '##### Return example'])
    expect(text).toContain(part);

  await openTemplateMenu(page);
  await page.locator('[data-testid="template-db"]').click();
  await editorContains(page, '|Field|Type|Null|Default|Comment|');
  // Each template is a block of its own, and inserting replaced nothing of the page's text.
  const both = await editorText(page);
  expect(both).toContain('for the other error codes\n\n- user: stores the users');
  expect(both).toContain('First line.');
  await screenshot(page, 'editor-assets-templates');
});

test('"save to template" in the Save menu stores the text as a template of mine', async () => {
  const { page } = await editFreshPage(owner, docsId, '# Weekly report\n\n- done\n- next\n');
  await page.locator('[data-testid="editor-save-menu"]').click();
  await page.getByRole('menuitem', { name: /Save to template/ }).click();
  await page.locator('[data-testid="save-template-title"]').fill('Weekly report');
  await page.locator('[data-testid="save-template-ok"]').click();
  await eventually(
    async () =>
      (await Template.countDocuments({ uid: owner.uid, template_title: 'Weekly report' })) === 1,
    true,
  );
  const stored = await Template.findOne({ uid: owner.uid, template_title: 'Weekly report' }).lean();
  expect(stored!.template_content).toBe('# Weekly report\n\n- done\n- next\n');

  // And it is listed under "my templates".
  const dialog = await openMoreTemplates(page);
  await templateRow(dialog, 'Weekly report').waitFor();
});

test('my templates: insert, share to another project (listed there as a project template), delete', async () => {
  const api = suite.server.api.withToken(owner.user_token);
  const { id } = await api.ok<{ id: number }>('template/save', {
    template_title: 'Release checklist',
    template_content: '## Release checklist\n\n- [ ] tag the version\n',
  });

  const { page } = await editFreshPage(owner);
  let dialog = await openMoreTemplates(page);
  await templateRow(dialog, 'Release checklist').locator('[data-testid="template-insert"]').click();
  await dialog.waitFor({ state: 'hidden' });
  await editorContains(page, '- [ ] tag the version');

  // Share it to the other project.
  dialog = await openMoreTemplates(page);
  await templateRow(dialog, 'Release checklist').locator('[data-testid="template-share"]').click();
  const share = page.locator('.ant-modal', {
    has: page.locator('[data-testid="share-template-ok"]'),
  });
  await share.getByLabel('Other project').check();
  await share.locator('[data-testid="share-template-ok"]').click();
  await share.waitFor({ state: 'hidden' });
  await eventually(
    async () => (await TemplateItem.find({ template_id: id }).lean()).map((row) => row.item_id),
    [otherId],
  );
  // The row now says it is shared, and the share dialog shows the current choice.
  await templateRow(dialog, 'Release checklist')
    .locator('[data-testid="template-share-count"]')
    .waitFor();
  await templateRow(dialog, 'Release checklist').locator('[data-testid="template-share"]').click();
  await expect(share.getByLabel('Other project').isChecked()).resolves.toBe(true);
  await share.getByRole('button', { name: 'Cancel' }).click();
  await closeDialog(dialog);

  // In the other project's editor it is a project template, inserted like any other.
  const other = await editFreshPage(owner, otherId, '# Other\n');
  dialog = await openMoreTemplates(other.page);
  await dialog.locator('[data-testid="templates-tab-item"]').click();
  const projectRow = templateRow(dialog, 'Release checklist').last();
  await projectRow.waitFor();
  await projectRow.locator('[data-testid="template-insert"]').click();
  await editorContains(other.page, '- [ ] tag the version');

  // Delete it (with confirmation) from my templates: gone from the list and from the database.
  dialog = await openMoreTemplates(page);
  await templateRow(dialog, 'Release checklist').locator('[data-testid="template-delete"]').click();
  await confirmPopup(page, 'Delete');
  await templateRow(dialog, 'Release checklist').waitFor({ state: 'detached' });
  expect(await Template.countDocuments({ id })).toBe(0);
  expect(await TemplateItem.countDocuments({ template_id: id })).toBe(0);
});

test('attachments: upload a picture, the badge counts it, insert it as an image, delete it', async () => {
  const { page, pageId } = await editFreshPage(owner);
  await badge(page, 0).waitFor();
  const picture = path.join(workDir, 'diagram.png');
  fs.writeFileSync(picture, samples.png());

  // The dialog's locator stays valid across closing and opening it again.
  const dialog = await openAttachments(page);
  await dialog.getByText('No files are bound to this page').waitFor();
  // Spec 002 §5: the size tip (advice, not enforced by the client).
  expect(await dialog.getByTestId('attachment-size-tip').innerText()).toBe(
    'Attachments should be under 4 MB.',
  );
  await dialog.locator('input[type=file]').setInputFiles(picture);
  const row = dialog.locator('[data-testid="attachment-row"][data-name="diagram.png"]');
  await row.waitFor();
  await badge(page, 1).waitFor();
  const file = await UploadFile.findOne({ display_name: 'diagram.png', uid: owner.uid }).lean();
  expect(file).toBeTruthy();
  expect(await FilePage.countDocuments({ file_id: file!.file_id, page_id: pageId })).toBe(1);

  await row.locator('[data-testid="attachment-insert"]').click();
  await dialog.waitFor({ state: 'hidden' });
  await editorContains(
    page,
    `![diagram.png](${suite.server.url}/server/?s=/api/attachment/visitFile&sign=${file!.sign})`,
  );
  // The preview shows the picture. (Deleting it before the preview has fetched it would make
  // that fetch a 404: the file is gone by then.)
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>(
      '[data-testid="editor-preview"] img[alt="diagram.png"]',
    );
    return Boolean(img?.complete && img.naturalWidth > 0);
  });

  await openAttachments(page);
  await row.locator('[data-testid="attachment-delete"]').click();
  await confirmPopup(page, 'Delete');
  await row.waitFor({ state: 'detached' });
  await badge(page, 0).waitFor();
  // Bound to this page only: the file itself is gone too.
  expect(await FilePage.countDocuments({ page_id: pageId })).toBe(0);
  expect(await UploadFile.countDocuments({ file_id: file!.file_id })).toBe(0);
  await screenshot(page, 'editor-assets-attachments');
});

test('a pasted picture is uploaded (page/uploadImg) and inserted with its URL', async () => {
  const { page, pageId } = await editFreshPage(owner);
  await pasteInto(page, { image: { name: 'shot.png', base64: samples.png().toString('base64') } });
  await eventually(
    async () => (await UploadFile.countDocuments({ display_name: 'shot.png', uid: owner.uid })) > 0,
    true,
  );
  const file = await UploadFile.findOne({ display_name: 'shot.png', uid: owner.uid }).lean();
  expect(file!.page_id).toBe(pageId);
  await editorContains(
    page,
    `(${suite.server.url}/server/?s=/api/attachment/visitFile&sign=${file!.sign})`,
  );
});

test('the file hub binds one of my own uploads to the page', async () => {
  const uploaded = await postMultipart(suite.server.url, 'page/upload', [
    { name: 'user_token', value: owner.user_token },
    { name: 'item_id', value: String(docsId) },
    { name: 'file', filename: 'handbook.pdf', content: samples.pdf(), type: 'application/pdf' },
  ]);
  expect(uploaded.body.success).toBe(1);
  const file = await UploadFile.findOne({ display_name: 'handbook.pdf', uid: owner.uid }).lean();

  const { page, pageId } = await editFreshPage(owner);
  const dialog = await openAttachments(page);
  await dialog.locator('[data-testid="attachments-tab-hub"]').click();
  await dialog.locator('[data-testid="hub-bind"][data-name="handbook.pdf"]').click();
  // Bound: the page's list shows it again, and the badge counts it.
  await dialog.locator('[data-testid="attachment-row"][data-name="handbook.pdf"]').waitFor();
  await badge(page, 1).waitFor();
  expect(await FilePage.countDocuments({ file_id: file!.file_id, page_id: pageId })).toBe(1);

  // A non-image is inserted as a plain link.
  await dialog
    .locator('[data-testid="attachment-row"][data-name="handbook.pdf"]')
    .locator('[data-testid="attachment-insert"]')
    .click();
  await editorContains(
    page,
    `[handbook.pdf](${suite.server.url}/server/?s=/api/attachment/visitFile&sign=${file!.sign})`,
  );
  expect(await editorText(page)).not.toContain('![handbook.pdf]');
});

test('notify: a member is added to the page notify list and removed again', async () => {
  const { page, pageId } = await editFreshPage(owner);
  await page.locator('[data-testid="editor-tool-notify"]').click();
  const dialog = page.locator('.ant-modal', { has: page.locator('[data-testid="notify-dialog"]') });
  // The author of the page's last save is subscribed by that save (as in ShowDoc).
  await dialog
    .locator(`[data-testid="notify-subscriber"][data-username="${owner.username}"]`)
    .waitFor();
  await dialog.getByLabel('Choose project members').click();
  await page.locator('.ant-select-item-option', { hasText: subscriber.username }).click();
  await page.keyboard.press('Escape');
  await dialog.locator('[data-testid="notify-add"]').click();
  const row = dialog.locator(
    `[data-testid="notify-subscriber"][data-username="${subscriber.username}"]`,
  );
  await row.waitFor();
  await row.getByText('Sam Subscriber').waitFor();
  expect(
    await Subscription.countDocuments({
      uid: subscriber.uid,
      object_id: pageId,
      object_type: 'page',
    }),
  ).toBe(1);

  await row.locator('[data-testid="notify-remove"]').click();
  await row.waitFor({ state: 'detached' });
  expect(await Subscription.countDocuments({ uid: subscriber.uid, object_id: pageId })).toBe(0);
});

test('an editor who is not a manager sees the files but cannot upload, insert, delete or bind', async () => {
  const made = await makePage(owner, docsId, { content: '# Shared\n' });
  const uploaded = await postMultipart(suite.server.url, 'page/upload', [
    { name: 'user_token', value: owner.user_token },
    { name: 'page_id', value: String(made.page_id) },
    { name: 'file', filename: 'spec.pdf', content: samples.pdf(), type: 'application/pdf' },
  ]);
  expect(uploaded.body.success).toBe(1);

  const page = await openEditor(suite, editor, docsId, made.page_id);
  await badge(page, 1).waitFor();
  const dialog = await openAttachments(page);
  const row = dialog.locator('[data-testid="attachment-row"][data-name="spec.pdf"]');
  await row.waitFor();
  await dialog
    .getByText('Only project managers can upload, insert or delete attachments.')
    .waitFor();
  for (const testId of [
    'attachment-upload',
    'attachment-insert',
    'attachment-delete',
    'attachments-tab-hub',
  ])
    expect(await dialog.locator(`[data-testid="${testId}"]`).count()).toBe(0);
  expect(await dialog.locator('input[type=file]').count()).toBe(0);
  // Reading is allowed: the file can be downloaded.
  expect(await row.getByRole('link', { name: 'Download spec.pdf' }).getAttribute('href')).toContain(
    'visitFile',
  );
  // Chinese-only tools are not offered in English.
  for (const testId of ['editor-tool-mock', 'editor-tool-http', 'editor-tool-ai'])
    expect(await page.locator(`[data-testid="${testId}"]`).count()).toBe(0);
});

/** The editor in Chinese: the interface language is the stored choice, read when the app loads. */
async function editInChinese(pageId: number): Promise<Page> {
  const page = await openEditor(suite, owner, docsId, pageId, {
    wait: false,
  });
  await page.evaluate(() => localStorage.setItem('help_lang', 'zh_cn'));
  await page.reload();
  return page;
}

test('in Chinese the Mock and HTTP test tools show, and the AI button only when the site enables it', async () => {
  const made = await makePage(owner, docsId, { content: '# 接口\n' });
  const first = await editInChinese(made.page_id);
  await first.locator('[data-testid="editor-screen"][data-ready="true"]').waitFor();
  await first.locator('[data-testid="editor-tool-mock"]').waitFor();
  await first.locator('[data-testid="editor-tool-http"]').waitFor();
  expect(await first.locator('[data-testid="editor-tool-ai"]').count()).toBe(0);

  // The HTTP test tool opens (test/e2e/assistants.test.ts uses it).
  await first.locator('[data-testid="editor-tool-http"]').click();
  const http = first.locator('[data-testid="http-test-dialog"]');
  await http.getByText('填写请求后点击“发送”').waitFor();
  await first.locator('.ant-modal', { has: http }).locator('.ant-modal-close').click();
  await http.waitFor({ state: 'hidden' });

  // The Chinese API template.
  await openTemplateMenu(first);
  await first.locator('[data-testid="template-api"]').click();
  await editorContains(first, '##### 简要描述');

  await setSetting('open_ai_key', 'sk-test-key');
  try {
    await first.reload();
    await first.locator('[data-testid="editor-screen"][data-ready="true"]').waitFor();
    await first.locator('[data-testid="editor-tool-ai"]').click();
    await first.locator('[data-testid="ai-dialog"]').waitFor();
  } finally {
    await setSetting('open_ai_key', '');
  }
});

test('a page not saved yet offers no attachments or notify list, and Mock asks to save first', async () => {
  const page = await editInChinese(0);
  // Title and page ID first (the new-page popup), then the still unsaved page is on screen.
  await page.locator('[data-testid="page-meta-title"]').fill('新页面');
  await page.locator('[data-testid="page-meta-id"]').fill('new-page');
  await page.locator('[data-testid="page-meta-id"]').press('Enter');
  await page.locator('[data-testid="page-meta-title"]').waitFor({ state: 'hidden' });

  const attachments = page.locator('[data-testid="editor-tool-attachments"]');
  await attachments.waitFor();
  expect(await attachments.isDisabled()).toBe(true);
  expect(await page.locator('[data-testid="editor-tool-notify"]').isDisabled()).toBe(true);

  await page.locator('[data-testid="editor-tool-mock"]').click();
  const alert = page.locator('.ant-modal-confirm', { hasText: '请先保存页面' });
  await alert.waitFor();
  await alert.getByRole('button').click();
  await alert.waitFor({ state: 'hidden' });
  expect(await page.locator('[data-testid="mock-dialog"]').count()).toBe(0);
});
