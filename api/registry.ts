/**
 * Where ShowDoc controllers are registered and looked up. A controller file in api/routes/
 * declares its actions with `defineController`; api/routes/index.ts lists the controllers; the
 * dispatcher finds an action by its normalised names (see showdocRoute.ts).
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { ActionContract, ControllerContract } from './contracts';
import type { Logger } from '../models/platform';
import type { AssistantLimits } from '../models/agent';
import type { Params } from './params';
import { actionKey, controllerKey } from './showdocRoute';

/** The process settings actions may need (api/app.ts fills them from the Config). */
export interface ActionConfig {
  /** ALLOW_PRIVATE_HOSTS (+ its alias HTTP_RELAY_ALLOW_HOSTS): private hosts and ranges the
   * server's own connections (the HTTP test relay among them) may reach. */
  allowPrivateHosts: readonly string[];
  /** PDF_CHROMIUM_PATH: the Chromium export/pdf prints with. */
  pdfChromiumPath: string;
  /** ASSISTANT_*: the item assistant's rate limits and per-answer budget. */
  assistantLimits: AssistantLimits;
}

/** What an action receives. Auth helpers (the accounts issue) build on `token()`. */
export interface ActionContext<Input = Record<string, unknown>> {
  req: Request;
  res: Response;
  params: Params;
  /**
   * The parameters as the action's declared contract reads them (api/contracts/), parsed before
   * the action runs; `{}` for an action without a contract.
   */
  input: Input;
  /** Names as the client spelled them. */
  controller: string;
  action: string;
  /** Client address (honours TRUST_PROXY). */
  ip: string;
  logger: Logger;
  /** The process settings an action passes on to models (explicit, never read from a global). */
  config: ActionConfig;
  /** The user_token by ShowDoc's transport order: X-API-Token, Bearer, then the parameter. */
  token(): string;
}

/**
 * An action returns its `data` payload (wrapped into `{error_code: 0, data}`; nothing → `[]`),
 * throws an ApiError, or writes a non-envelope response itself (images, downloads, redirects).
 */
export type ActionHandler = (ctx: ActionContext) => unknown | Promise<unknown>;

/** The actions of a controller with a declared contract: each reads its typed `ctx.input`. */
export type ContractActions<C extends ControllerContract> = {
  [K in keyof C]?: (
    ctx: ActionContext<C[K] extends ActionContract ? z.output<C[K]['input']> : never>,
  ) => unknown | Promise<unknown>;
};

export interface ControllerDefinition {
  name: string;
  actions: Record<string, ActionHandler>;
}

export function defineController(
  name: string,
  actions: Record<string, ActionHandler>,
): ControllerDefinition;
/** With its contract: `defineController('user', userContract, { async info(ctx) {…} })`. */
export function defineController<C extends ControllerContract>(
  name: string,
  contract: C,
  actions: ContractActions<C>,
): ControllerDefinition;
export function defineController(
  name: string,
  first: Record<string, unknown>,
  second?: Record<string, unknown>,
): ControllerDefinition {
  return { name, actions: (second ?? first) as Record<string, ActionHandler> };
}

export class ControllerRegistry {
  private readonly controllers = new Map<string, Map<string, ActionHandler>>();

  register(definition: ControllerDefinition): void {
    const key = controllerKey(definition.name);
    const actions = this.controllers.get(key) ?? new Map<string, ActionHandler>();
    for (const [name, handler] of Object.entries(definition.actions)) {
      const akey = actionKey(name);
      if (actions.has(akey))
        throw new Error(`Action ${definition.name}/${name} is registered twice`);
      actions.set(akey, handler);
    }
    this.controllers.set(key, actions);
  }

  /** Every registered action as `controller/action` (normalised names), e.g. for the fuzz suite. */
  routes(): string[] {
    return [...this.controllers].flatMap(([controller, actions]) =>
      [...actions.keys()].map((action) => `${controller}/${action}`),
    );
  }

  find(controller: string, action: string): ActionHandler | undefined {
    return this.controllers.get(controllerKey(controller))?.get(actionKey(action));
  }
}
