/**
 * Compatibility: ShowDoc features Quire leaves out, answered as ShowDoc does with them switched
 * off (kanban, public square), and its maintenance hooks.
 */
export { adminActionMissing, aiServiceTest, selfUpdateRefused } from './adminOff';
export { kanbanActivity, logKanbanEvent } from './kanban';
export { checkDb, scheduledJobsForbidden } from './maintenance';
