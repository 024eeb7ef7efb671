/**
 * `ping/index` (ShowDoc's PingController): a liveness answer RunApi clients call before anything
 * else. `importPostman/import` and `importSwagger/import` are ShowDoc's format-specific upload
 * routes; Quire's `import/auto` already recognises both formats, so they are the same handler.
 */
import { importController } from './import';
import { pingContract } from '../contracts';
import { defineController } from '../registry';

export const pingController = defineController('ping', pingContract, {
  index() {
    return { pong: true as const, time: new Date().toISOString() };
  },
});

export const importPostmanController = defineController('importPostman', {
  import: importController.actions.auto,
});

export const importSwaggerController = defineController('importSwagger', {
  import: importController.actions.auto,
});
