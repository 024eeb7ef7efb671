/** The kanban domain's collections. They import only mongoose and the platform. */
export * from './kanbanActivity';
export * from './kanbanBoardLock';
