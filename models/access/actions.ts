/**
 * Named permission actions: what an actor may do to an item, by name, with the answer ShowDoc's
 * clients expect when it is refused. A domain asks `requireAction(actor, 'page.update', itemId)`;
 * which level the action needs and which wire code a refusal carries are decided here, once,
 * not at each call site. `clientFlags()` ships the same answers to the web client.
 *
 * `needs` is an access level (archived items refuse every write) or a role, which an archived
 * item still allows: `editor`, `manager` (reads that need the role), `member` (the owner, a site
 * admin or a member row — not a visitor of a public item), `itemOwner`, `ownerOrSiteAdmin`.
 */
import type { ErrorCode } from '../platform';

export type Role = 'editor' | 'manager' | 'member' | 'itemOwner' | 'ownerOrSiteAdmin';
type Need = 'visit' | 'edit' | 'manage' | Role;

export interface ActionRule {
  needs: Need;
  /** Code when the item is missing or deleted (default 10101). */
  missing?: ErrorCode;
  /** Code when the actor lacks the level (default 10303). */
  denied?: ErrorCode;
  message?: string;
}

const MANAGE = 'No permission to manage this item';
const EDIT_ITEM = 'You do not have permission to edit this item';

export const ACTIONS = {
  // Items
  'item.read': { needs: 'visit', message: 'No permission to visit this item' },
  'item.manage': { needs: 'manage', message: MANAGE },
  'item.readSettings': { needs: 'manager', message: MANAGE },
  'item.copy': { needs: 'editor', denied: 10101, message: 'No permission to copy this item' },
  'item.readChangeLog': { needs: 'editor', denied: 10101, message: 'No edit permission' },
  'item.useAssistant': {
    needs: 'visit',
    missing: 10303,
    message: 'No permission to visit this item',
  },
  'item.export': { needs: 'editor', missing: 10101, denied: 10302, message: 'No permission' },
  'item.exportHtml': { needs: 'editor', missing: 10103, denied: 10103, message: 'No permission' },
  'item.import': { needs: 'manage', missing: 10101, denied: 10302 },
  /** Give the item away or delete it (archived items too: archive freezes content, not disposal). */
  'item.dispose': { needs: 'ownerOrSiteAdmin' },
  /** What only the item's owner does: delete it on an SSO account or through an AI token. */
  'item.actAsOwner': { needs: 'itemOwner' },
  /**
   * Be reached as one of the item's people (notices, MCP tools, presence): visitors of a public
   * item read it but are not.
   */
  'item.belong': { needs: 'member' },
  // Webhooks (item settings → Webhooks): managers read the hooks and their log, even of an
  // archived item; changing them is a write.
  'webhook.read': { needs: 'manager', message: MANAGE },
  'webhook.manage': { needs: 'manage', message: MANAGE },
  // Live API contracts (the import dialog): managers see the follow and its last diff, even of
  // an archived item; following, checking and pushing write pages.
  'contract.read': { needs: 'manager', message: MANAGE },
  'contract.manage': { needs: 'manage', message: MANAGE },
  // Members
  'member.manage': { needs: 'manage', message: MANAGE },
  'member.list': { needs: 'manager', message: MANAGE },
  'member.readOwn': { needs: 'editor', denied: 10301, message: 'No edit permission' },
  // Catalogs
  'catalog.read': { needs: 'visit', missing: 10103, denied: 10103 },
  'catalog.update': { needs: 'edit', missing: 10103, denied: 10103, message: EDIT_ITEM },
  // Pages. A page one may not read answers as a missing page (models/pages requirePage), so
  // `page.read` never refuses with its own code.
  'page.read': { needs: 'visit', denied: 10101 },
  'page.update': { needs: 'edit', missing: 10101, denied: 10101, message: 'No edit permission' },
  /**
   * Propose changes to a page's text (suggest mode): editors always; read-only members when the
   * item's `suggest_only_readers` is on (models/suggestions asks the setting; archived items no).
   */
  'page.suggest': { needs: 'member', message: 'No permission to suggest changes to this page' },
  /** Accept or reject a page's suggestions (suggestion/accept, suggestion/reject). */
  'suggestion.review': {
    needs: 'edit',
    denied: 10303,
    message: 'Only people who may edit this page accept or reject suggestions',
  },
  /** Move a page to the recycle bin (page/delete). */
  'page.delete': { needs: 'edit', denied: 10303, message: 'No delete permission' },
  /** Upload a file into a page (page_id given to the upload). */
  'page.upload': {
    needs: 'edit',
    denied: 10103,
    message: 'No permission to upload files to this page',
  },
  /** Subscribe others to a page, or unsubscribe them (subscription/*). */
  'subscription.manage': { needs: 'edit', denied: 10103, message: 'No edit permission' },
  /** Save a page's mock (mock/add). */
  'mock.update': { needs: 'edit', denied: 10303, message: 'No edit permission' },
  'recycle.manage': { needs: 'manage', denied: 10303, message: 'No manage permission' },
  /** Delete a page someone else wrote (its author may always delete it, given edit access). */
  'page.deleteAnyones': { needs: 'manage' },
  // Comments
  /** Delete someone else's comment (a reading that needs the role: archived items too). */
  'comment.moderate': { needs: 'manager' },
  // Files
  'file.upload': {
    needs: 'edit',
    missing: 10101,
    denied: 10103,
    message: 'No permission to upload files to this item',
  },
  'attachment.update': { needs: 'edit', missing: 10101, denied: 10101 },
  /** Bind an uploaded file to a page or unbind it (attachment/bindPage, unbindPage). */
  'attachment.bind': {
    needs: 'edit',
    denied: 10103,
    message: 'No permission to change the attachments of this page',
  },
  // API workbench (runapi/*, itemVariable/*, flow/*, paramDescLib/*): ShowDoc's checkItemEdit
  // answers 10303 for a missing item as for a refused one.
  'workbench.read': { needs: 'visit', missing: 10303, denied: 10303, message: 'No permission' },
  'workbench.edit': { needs: 'edit', missing: 10303, denied: 10303, message: 'No edit permission' },
  // Templates
  'template.share': { needs: 'editor', missing: 10103, denied: 10103, message: 'No permission' },
  /** Receive a shared template (the target item of `template.share`). */
  'template.receive': { needs: 'edit' },
} as const satisfies Record<string, ActionRule>;

export type ItemAction = keyof typeof ACTIONS;
