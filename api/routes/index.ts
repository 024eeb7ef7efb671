/**
 * The ShowDoc controllers Quire serves. Each lives in its own file here, named as in the
 * reference (`user.ts`, `item.ts`, `itemGroup.ts`, …), exports a `defineController(...)`, and is
 * added to this list.
 */
import { ControllerRegistry, type ControllerDefinition } from '../registry';

export const controllers: ControllerDefinition[] = [];

/** A registry holding every controller above (one per app, so tests can add their own). */
export function createControllerRegistry(extra: ControllerDefinition[] = []): ControllerRegistry {
  const registry = new ControllerRegistry();
  for (const controller of [...controllers, ...extra]) registry.register(controller);
  return registry;
}
