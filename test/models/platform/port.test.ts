/**
 * Ports (models/platform/port.ts): a lower domain reads through what the owner above it plugs
 * in; with nothing plugged in, the reader fails naming the owner, never silently answering
 * nothing. And the app's real ports are filled once their owners' faces are loaded.
 */
import { describe, expect, it } from '@jest/globals';
import { definePort } from '../../../models/platform';

describe('definePort', () => {
  it('refuses to be used before its owner fills it, naming the owner', () => {
    const port = definePort<{ answer(): number }>('probe: answers', 'probeOwner');
    expect(() => port.use()).toThrow(
      'probe: answers: nothing fills this port (models/probeOwner is not loaded)',
    );
  });

  it('hands out what the owner filled it with', () => {
    const port = definePort<{ answer(): number }>('probe: answers', 'probeOwner');
    port.fill({ answer: () => 42 });
    expect(port.use().answer()).toBe(42);
  });

  it('the ports of access, items and pages are filled as their owners load', async () => {
    const access = await import('../../../models/access');
    expect(() => access.liveItemSource.use()).toThrow('models/items is not loaded');
    expect(() => access.membershipSource.use()).toThrow('models/members is not loaded');
    expect(() => access.catalogSource.use()).toThrow('models/catalogs is not loaded');
    const items = await import('../../../models/items');
    expect(access.liveItemSource.use()).toBeDefined();
    const pages = await import('../../../models/pages');
    expect(items.itemPages.use()).toBeDefined();
    expect(() => pages.pageCatalogs.use()).toThrow('models/catalogs is not loaded');
    await import('../../../models/catalogs');
    await import('../../../models/members');
    expect(access.membershipSource.use()).toBeDefined();
    expect(access.catalogSource.use()).toBeDefined();
    expect(pages.pageCatalogs.use()).toBeDefined();
  });
});
