/**
 * "Ask the docs": the item assistant (ShowDoc's `agent/*`) — sessions, the agent loop against the
 * admin's OpenAI-compatible service with Quire's own tools run as the asker, limits and cancel.
 */
export { answerQuestion, cancelAnswer, type AgentSink, NOT_FOUND, type Question } from './answer';
export { ASK_WINDOW_SECONDS, type AssistantLimits, DEFAULT_ASSISTANT_LIMITS } from './limits';
export {
  agentConfig,
  type Asker,
  deleteSession,
  listSessions,
  loadSession,
  newSession,
  resetSession,
  saveFeedback,
} from './sessions';
