/**
 * THE REST contract: per ShowDoc controller, each action's input (how its parameters are read)
 * and output (the `data` of a successful envelope), as zod schemas. `api/` parses every request
 * of a declared action with its input schema (api/showdoc.ts); the web app imports the output
 * types only (`import type { Output } from '../../api/contracts'`); test/api/contracts.test.ts
 * drives every declared action and checks each answer against its output schema.
 *
 * Like realtime/socketEvents.ts and realtime/collabProtocol.ts, these files import nothing but zod.
 */
import type { z } from 'zod';
import type { ActionContract, ControllerContract } from './coerce';
import {
  adminItemContract,
  adminSettingContract,
  adminUpdateContract,
  adminUserContract,
  extLoginContract,
} from './admin';
import { aiTokenContract } from './aiToken';
import { aiContract, httpRelayContract } from './assistant';
import { attachmentContract } from './attachment';
import { mockContract, pageCommentContract, pageFeedbackContract } from './comment';
import { suggestionContract } from './suggestion';
import { agentContract } from './agent';
import { publicSquareContract, scriptCronContract, updateContract } from './compat';
import { kanbanContract } from './kanban';
import { adminMessageContract, subscriptionContract } from './subscription';
import { itemContract, itemGroupContract, recycleContract, templateContract } from './item';
import {
  memberContract,
  teamContract,
  teamItemContract,
  teamItemMemberContract,
  teamMemberContract,
} from './member';
import { messageContract } from './message';
import { webhookContract } from './webhook';
import { apiContractContract } from './apiContract';
import { exportContract, openContract, updatePageByApi } from './open';
import { catalogContract, pageContract, pageHistoryContract } from './page';
import { readContract } from './read';
import { commonContract, userContract } from './user';
import {
  flowContract,
  itemVariableContract,
  paramDescLibContract,
  pingContract,
  runapiContract,
} from './workbench';

export * from './coerce';
export * from './admin';
export * from './agent';
export * from './assistant';
export * from './attachment';
export * from './comment';
export * from './suggestion';
export * from './compat';
export * from './kanban';
export * from './aiToken';
export * from './subscription';
export * from './item';
export * from './member';
export * from './message';
export * from './open';
export * from './page';
export * from './read';
export * from './user';
export * from './workbench';
export * from './webhook';
export * from './apiContract';

/** Keyed by the controller's lookup key (`itemgroup`, `teamitemmember`): see api/showdocRoute.ts. */
export const contracts = {
  user: userContract,
  common: commonContract,
  item: { ...itemContract, updateByApi: updatePageByApi },
  open: openContract,
  export: exportContract,
  itemgroup: itemGroupContract,
  recycle: recycleContract,
  template: templateContract,
  member: memberContract,
  team: teamContract,
  teammember: teamMemberContract,
  teamitem: teamItemContract,
  teamitemmember: teamItemMemberContract,
  message: messageContract,
  catalog: catalogContract,
  page: { ...pageContract, ...pageHistoryContract },
  attachment: attachmentContract,
  subscription: subscriptionContract,
  pagecomment: pageCommentContract,
  pagefeedback: pageFeedbackContract,
  mock: mockContract,
  adminmessage: adminMessageContract,
  adminuser: adminUserContract,
  adminitem: adminItemContract,
  adminsetting: adminSettingContract,
  adminupdate: adminUpdateContract,
  extlogin: extLoginContract,
  agent: agentContract,
  ai: aiContract,
  httprelay: httpRelayContract,
  aitoken: aiTokenContract,
  kanban: kanbanContract,
  update: updateContract,
  scriptcron: scriptCronContract,
  publicsquare: publicSquareContract,
  read: readContract,
  runapi: runapiContract,
  itemvariable: itemVariableContract,
  flow: flowContract,
  paramdesclib: paramDescLibContract,
  ping: pingContract,
  webhook: webhookContract,
  apicontract: apiContractContract,
  suggestion: suggestionContract,
} satisfies Record<string, ControllerContract>;

/** The contract of `controllerKey/action` (action names match case-insensitively), if declared. */
export function findContract(controllerKey: string, action: string): ActionContract | undefined {
  const controller = (contracts as Record<string, ControllerContract>)[controllerKey];
  if (!controller) return undefined;
  const wanted = action.toLowerCase();
  const name = Object.keys(controller).find((key) => key.toLowerCase() === wanted);
  return name === undefined ? undefined : controller[name];
}

type Contracts = typeof contracts;

/** What `controller/action` answers on success: `Output<'item', 'myList'>`. */
export type Output<
  C extends keyof Contracts,
  A extends keyof Contracts[C],
> = Contracts[C][A] extends { output: z.ZodType } ? z.output<Contracts[C][A]['output']> : never;

/** The parsed parameters of `controller/action`. */
export type Input<
  C extends keyof Contracts,
  A extends keyof Contracts[C],
> = Contracts[C][A] extends {
  input: z.ZodType;
}
  ? z.output<Contracts[C][A]['input']>
  : never;
