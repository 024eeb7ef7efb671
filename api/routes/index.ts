/**
 * The ShowDoc controllers Quire serves. Each lives in its own file here, named as in the
 * reference (`user.ts`, `item.ts`, `itemGroup.ts`, …), exports a `defineController(...)`, and is
 * added to this list.
 */
import { ControllerRegistry, type ControllerDefinition } from '../registry';
import { commonController } from './common';
import { userController } from './user';
import { pageController } from './page';
import { pageHistoryController } from './pageHistory';
import { pageLockController } from './pageLock';
import { pageUploadController } from './pageUpload';
import { attachmentController } from './attachment';
import { recycleController } from './recycle';
import { catalogController } from './catalog';
import { itemSearchController } from './itemSearch';
import { itemController } from './item';
import { itemListController } from './itemList';
import { itemGroupController } from './itemGroup';
import { memberController } from './member';
import { teamController } from './team';
import { teamMemberController } from './teamMember';
import { teamItemController } from './teamItem';
import { teamItemMemberController } from './teamItemMember';
import { templateController } from './template';
import { subscriptionController } from './subscription';
import { messageController } from './message';
import { adminMessageController } from './adminMessage';
import { adminUserController } from './adminUser';
import { adminItemController } from './adminItem';
import { adminSettingController } from './adminSetting';
import { adminUpdateController } from './adminUpdate';
import { extLoginController, extLoginRedirects } from './extLogin';
import { mockController } from './mock';
import { openAliasControllers, openController } from './open';
import { exportController } from './export';
import { exportHtmlController } from './exportHtml';
import { importController } from './import';
import { agentController } from './agent';
import { aiController } from './ai';
import { aiTokenController } from './aiToken';
import { httpRelayController } from './httpRelay';
import { kanbanController, kanbanDownloadController } from './kanban';
import { publicSquareController, scriptCronController, updateController } from './maintenance';
import { pageCommentController, pageFeedbackController } from './pageComment';
import { suggestionController } from './suggestion';
import { readController } from './read';
import { runapiController } from './runapi';
import { itemVariableController } from './itemVariable';
import { flowController } from './flow';
import { paramDescLibController } from './paramDescLib';
import { webhookController } from './webhook';
import { apiContractController } from './apiContract';
import { importPostmanController, importSwaggerController, pingController } from './ping';

export const controllers: ControllerDefinition[] = [
  itemController,
  itemListController,
  itemGroupController,
  memberController,
  teamController,
  teamMemberController,
  teamItemController,
  teamItemMemberController,
  commonController,
  userController,
  pageController,
  pageHistoryController,
  pageLockController,
  pageUploadController,
  attachmentController,
  recycleController,
  catalogController,
  itemSearchController,
  templateController,
  subscriptionController,
  messageController,
  adminMessageController,
  adminUserController,
  adminItemController,
  adminSettingController,
  adminUpdateController,
  extLoginController,
  extLoginRedirects,
  mockController,
  openController,
  exportController,
  exportHtmlController,
  importController,
  ...openAliasControllers,
  pageCommentController,
  pageFeedbackController,
  agentController,
  aiController,
  aiTokenController,
  httpRelayController,
  kanbanController,
  kanbanDownloadController,
  publicSquareController,
  updateController,
  scriptCronController,
  readController,
  runapiController,
  itemVariableController,
  flowController,
  paramDescLibController,
  pingController,
  importPostmanController,
  importSwaggerController,
  webhookController,
  apiContractController,
  suggestionController,
];

/** A registry holding every controller above (one per app, so tests can add their own). */
export function createControllerRegistry(extra: ControllerDefinition[] = []): ControllerRegistry {
  const registry = new ControllerRegistry();
  for (const controller of [...controllers, ...extra]) registry.register(controller);
  return registry;
}
