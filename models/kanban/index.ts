/** Kanban boards (item type 6): ShowDoc's board and task pages, live board operations, the activity log. */
export {
  EVENT_TYPES,
  exportKanbanActivity,
  kanbanActivity,
  type KanbanEventType,
  logKanbanEvent,
} from './activity';
export {
  boardCards,
  type BoardOptions,
  cardOf,
  findBoardPage,
  NO_BOARD,
  NOT_KANBAN,
  openBoard,
  requireKanbanItem,
} from './boards';
export {
  BOARD_TITLE,
  checkDueDate,
  checkPriority,
  checkTags,
  checkTaskTitle,
  defaultBoard,
  KANBAN_ITEM,
  type KanbanBoardData,
  type KanbanTaskData,
  MAX_TAGS,
  PRIORITIES,
  parseBoard,
  parseTask,
  TAG_COLORS,
} from './format';
export { addList, archiveList, deleteList, moveList, renameList, restoreList } from './lists';
export {
  type BoardView,
  createTask,
  deleteTask,
  getBoard,
  getTask,
  moveTask,
  type MoveResult,
  type NewTask,
  type TaskFields,
  updateTask,
} from './tasks';
export { startKanbanRelay } from './relay';
export { remapImportedBoard } from './transfer';
export { KanbanActivity, KanbanBoardLock } from './schemas';
