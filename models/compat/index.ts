/**
 * Compatibility: ShowDoc's back-office actions Quire does not offer and its maintenance hooks,
 * answered as ShowDoc does.
 */
export { adminActionMissing, aiServiceTest, selfUpdateRefused } from './adminOff';
export { checkDb, scheduledJobsForbidden } from './maintenance';
