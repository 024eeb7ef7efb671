/**
 * Quire's own: a short lease on one board, held while a board write reads, changes and stores
 * the board page, so writes from several processes apply one after another (no lost moves). A
 * lease outlives a crashed holder by at most its length.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface KanbanBoardLockDoc {
  item_id: number;
  holder: string;
  /** Milliseconds since the epoch until which the lease holds. */
  until: number;
}

const kanbanBoardLockSchema = new Schema<KanbanBoardLockDoc>(
  {
    item_id: { type: Number, required: true },
    holder: { type: String, required: true },
    until: { type: Number, required: true },
  },
  { collection: 'kanban_board_lock', versionKey: false },
);

kanbanBoardLockSchema.index({ item_id: 1 }, { unique: true });

export const KanbanBoardLock = defineModel<KanbanBoardLockDoc>(
  'KanbanBoardLock',
  kanbanBoardLockSchema,
);
