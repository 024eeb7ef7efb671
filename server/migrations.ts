/**
 * The data migrations, in order (run by models/platform/migrations.ts at start, after a backup).
 * Append only: a released step is never changed or renumbered — a database records the last id
 * it ran. Each step must be idempotent (it may run again after an interrupted start), and works
 * on the collections as stored, not through today's schemas, which describe the newest shape.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Migration } from '../models/platform';
import { ROOT } from './paths';

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    // Releases before the page list showed "unsaved draft" stored live drafts without flagging
    // their pages (page.has_draft), so those pages would not show their draft.
    name: 'flag pages that have a live draft',
    async up(db) {
      const pageIds = (await db.collection('page_draft').distinct('page_id')) as number[];
      if (pageIds.length)
        await db
          .collection('page')
          .updateMany(
            { page_id: { $in: pageIds }, has_draft: { $ne: 1 } },
            { $set: { has_draft: 1 } },
          );
    },
  },
];

/** package.json's version (recorded with each step and in the backup's manifest). */
export function quireVersion(): string {
  const file = path.join(ROOT, 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}
