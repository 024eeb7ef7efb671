/**
 * What every collab extension shares: the Hocuspocus instance (its loaded documents), the live
 * page registry, the event bus, the logger and, with REDIS_URL, the Redis side. One per process.
 */
import type { Connection, Document, Hocuspocus } from '@hocuspocus/server';
import type { EventBus, Logger } from '../../models/platform';
import type { CollabRedis } from './redis';
import { LivePages, type LivePage } from './livePages';

export interface CollabRuntime {
  /** Set right after the instance is built (extensions are built first). */
  hocuspocus: Hocuspocus;
  pages: LivePages;
  events: EventBus;
  logger: Logger;
  redis: CollabRedis | null;
  /**
   * Other processes write pages too (Redis, or worker processes whose documents all live in one
   * owning worker): their saves arrive as relayed `page.saved` events.
   */
  multiProcess: boolean;
}

export function createRuntime(deps: Omit<CollabRuntime, 'hocuspocus' | 'pages'>): CollabRuntime {
  return { ...deps, pages: new LivePages(), hocuspocus: undefined as unknown as Hocuspocus };
}

/** A document that is loaded here and has its page state; undefined while loading or unloaded. */
export function loadedPage(
  runtime: CollabRuntime,
  documentName: string,
): { document: Document; live: LivePage } | undefined {
  const document = runtime.hocuspocus.documents.get(documentName);
  const live = runtime.pages.get(documentName);
  if (!document || !live || document.isLoading || document.isDestroyed) return undefined;
  return { document, live };
}

export function connectionsOf(document: Document): Connection[] {
  return document.getConnections();
}
