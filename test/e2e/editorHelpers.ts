/**
 * Browser-test plumbing for the page editor suites: open `/page/edit/:item/:page` as a user and
 * wait until the editor is ready, read and type the CodeMirror text, and dispatch real paste
 * events (a DataTransfer built in the page, as the browser hands one to the editor).
 */
import type { Page } from 'playwright-core';
import { makeEditedItem } from '../helpers/factories';
import type { TestUser } from '../helpers/users';
import type { BrowserSuite } from './helpers';
import { loginAs } from './readerFixture';

/** Opens the editor of `page` (0: a new page) in a new browser page of the suite, as `user`. */
export async function openEditor(
  suite: BrowserSuite,
  user: TestUser,
  itemId: number,
  page: number | string,
  options: { wait?: boolean; query?: string; ignore?: RegExp[] } = {},
): Promise<Page> {
  const tp = await suite.open({ ignore: options.ignore });
  await loginAs(tp, user);
  await tp.page.goto(`${suite.server.url}/page/edit/${itemId}/${page}${options.query ?? ''}`);
  if (options.wait !== false) await editorReady(tp.page);
  return tp.page;
}

export async function editorReady(page: Page): Promise<void> {
  await page.locator('[data-testid="editor-screen"][data-ready="true"]').waitFor();
}

/**
 * The editor's text as the reader of the screen sees it: the rendered lines without widgets (remote
 * cursors and their name labels, the placeholder). Test documents are short, so every line is
 * rendered.
 */
export async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const lines = document.querySelectorAll('[data-testid="editor-cm"] .cm-content > .cm-line');
    return Array.from(lines)
      .map((line) => {
        const copy = line.cloneNode(true) as HTMLElement;
        copy
          .querySelectorAll(
            '.cm-widgetBuffer, .cm-ySelectionCaret, .cm-ySelectionInfo, .cm-placeholder',
          )
          .forEach((widget) => widget.remove());
        return copy.textContent ?? '';
      })
      .join('\n');
  });
}

/** Types at the end of the document (a real keyboard, into the focused editor). */
export async function typeAtEnd(page: Page, text: string): Promise<void> {
  await page.locator('[data-testid="editor-cm"] .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

export async function pasteInto(
  page: Page,
  data: { text?: string; html?: string; image?: { name: string; base64: string } },
): Promise<void> {
  await page.locator('[data-testid="editor-cm"] .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.evaluate((d) => {
    const transfer = new DataTransfer();
    if (d.text !== undefined) transfer.setData('text/plain', d.text);
    if (d.html !== undefined) transfer.setData('text/html', d.html);
    if (d.image) {
      const bytes = Uint8Array.from(atob(d.image.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], d.image.name, { type: 'image/png' }));
    }
    const target = document.querySelector('[data-testid="editor-cm"] .cm-content')!;
    target.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, data);
}

/** The editor suites' item: Olive Owner's, with Eddie Editor as an edit member. */
export const editedItem = (itemName: string) =>
  makeEditedItem(
    { item_name: itemName },
    { owner: { name: 'Olive Owner' }, editor: { name: 'Eddie Editor' } },
  );
