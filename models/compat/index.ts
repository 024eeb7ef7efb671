/**
 * Compatibility: ShowDoc features Quire leaves out, answered as ShowDoc does with them switched
 * off (AI assistant, public square), and its maintenance hooks.
 */
export {
  agentConfig,
  agentSessionAction,
  agentSessions,
  agentUnavailable,
  itemAiConfig,
  setItemAiConfig,
} from './aiOff';
export { adminActionMissing, aiServiceTest, selfUpdateRefused } from './adminOff';
export {
  checkDb,
  publicSquareItems,
  publicSquareState,
  scheduledJobsForbidden,
} from './maintenance';
