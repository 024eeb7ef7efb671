/**
 * Single-page share link tools (ShowDoc's PageHandler): one public link `/p/<key>` per page,
 * through models/pages' share links.
 */
import { activeShareKey, toggleShareLink } from '../../../models/pages';
import { SinglePage } from '../../../models/pages';
import { nowSeconds } from '../../../models/platform';
import { attempt, pageFor } from '../access';
import { idArg, intArg } from '../args';
import { integer, objectSchema } from '../schema';
import { defineTools } from '../toolkit';

const pageIdSchema = objectSchema({ page_id: integer('Page ID') }, ['page_id']);

export const linkTools = defineTools(
  {
    name: 'create_single_page_link',
    description:
      'Create a share link to one page (replacing its old one). Answers unique_key and share_url, a link anyone can open without access to the item; optionally expiring after some days',
    inputSchema: objectSchema(
      {
        page_id: integer('Page ID'),
        expire_days: integer('Days until the link expires (optional; 0 or absent = never)'),
      },
      ['page_id'],
    ),
    write: true,
    async handler(caller, args) {
      const pageId = idArg(args, 'page_id');
      const expireDays = intArg(args, 'expire_days', 0, 0);
      await pageFor(caller, pageId, 'write');
      const link = await attempt(() =>
        toggleShareLink(caller.actor, { pageId, enable: true, expireDays }),
      );
      return {
        unique_key: link!.unique_key,
        share_url: `${caller.baseUrl}/p/${link!.unique_key}`,
        expire_time: link!.expire_time,
        message: 'Share link created',
      };
    },
  },
  {
    name: 'get_single_page_link',
    description: "A page's current share link: unique_key, share_url and expiry time",
    inputSchema: pageIdSchema,
    write: false,
    async handler(caller, args) {
      const pageId = idArg(args, 'page_id');
      await pageFor(caller, pageId, 'read');
      const key = await activeShareKey(pageId, nowSeconds());
      if (!key) return { has_link: false, message: 'This page has no share link' };
      const row = await SinglePage.findOne({ page_id: pageId }, { expire_time: 1, _id: 0 }).lean();
      return {
        has_link: true,
        unique_key: key,
        share_url: `${caller.baseUrl}/p/${key}`,
        expire_time: row?.expire_time ?? 0,
      };
    },
  },
  {
    name: 'delete_single_page_link',
    description: "Delete a page's share link; the link stops working",
    inputSchema: pageIdSchema,
    write: true,
    async handler(caller, args) {
      const pageId = idArg(args, 'page_id');
      await pageFor(caller, pageId, 'manage');
      await attempt(() => toggleShareLink(caller.actor, { pageId, enable: false, expireDays: 0 }));
      return { message: 'Share link deleted' };
    },
  },
);
