/**
 * Where ShowDoc controllers are registered and looked up. A controller file in api/routes/
 * declares its actions with `defineController`; api/routes/index.ts lists the controllers; the
 * dispatcher finds an action by its normalised names (see showdocRoute.ts).
 */
import type { Request, Response } from 'express';
import type { Logger } from '../models/platform';
import type { Params } from './params';
import { actionKey, controllerKey } from './showdocRoute';

/** What an action receives. Auth helpers (the accounts issue) build on `token()`. */
export interface ActionContext {
  req: Request;
  res: Response;
  params: Params;
  /** Names as the client spelled them. */
  controller: string;
  action: string;
  /** Client address (honours TRUST_PROXY). */
  ip: string;
  logger: Logger;
  /** The user_token by ShowDoc's transport order: X-API-Token, Bearer, then the parameter. */
  token(): string;
}

/**
 * An action returns its `data` payload (wrapped into `{error_code: 0, data}`; nothing → `[]`),
 * throws an ApiError, or writes a non-envelope response itself (images, downloads, redirects).
 */
export type ActionHandler = (ctx: ActionContext) => unknown | Promise<unknown>;

export interface ControllerDefinition {
  name: string;
  actions: Record<string, ActionHandler>;
}

export function defineController(
  name: string,
  actions: Record<string, ActionHandler>,
): ControllerDefinition {
  return { name, actions };
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
