/** AI tokens: the keys of the MCP endpoint (ShowDoc's `ai_token/*`), their checks and rate limits. */
export {
  addCreatedItemToScope,
  aiTokenDetail,
  type AiTokenCaller,
  type AiTokenInput,
  type AiTokenRow,
  authenticateAiToken,
  availableItems,
  createAiToken,
  deleteAiToken,
  hashToken,
  isTokenFormat,
  listAiTokens,
  rememberAiClient,
  resetAiToken,
  revokeAiToken,
  touchAiToken,
  updateAiToken,
} from './aiTokens';
export {
  consumeAiTokenCall,
  RATE_WINDOW_SECONDS,
  type RateLimits,
  type RateRefusal,
} from './rateLimit';
export { UserAiToken, type UserAiTokenDoc } from './schemas';
