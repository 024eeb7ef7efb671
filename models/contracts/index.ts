/** Live API contracts: an item follows an OpenAPI document; its changes update the API pages. */
export {
  checkContractNow,
  contractInfo,
  type ContractInfo,
  fetchSpec,
  followContract,
  lastContractDiff,
  type MarkRow,
  pageContractMark,
  pushSpec,
  unfollowContract,
} from './follow';
export { compareContracts, type ContractChange, toOpenApi3 } from './diff';
export { itemHasContractMarks } from './marks';
export { startContractScheduler } from './scheduler';
export { ApiContract, ApiContractMark, SCHEDULES } from './schemas';
export { applySpec, mockPathOf, SYNC_AGENT, type SyncResult } from './sync';
