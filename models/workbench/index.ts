/** The API workbench: RunApi environments, variables, global parameters, test flows, parameter library. */
export * from './environments';
export * from './flows';
export * from './paramDescLib';
export { runFlow, type FlowRunResult, type FlowStepResult } from './flowRunner';
export { fill, stepRequest, substitute } from './stepRequest';
export { learnFromPage, paramsOfPage, startParamLearning } from './paramLearning';

// Collections the ShowDoc migration writes (eslint `quire/domain-faces` sends them here).
export {
  ItemVariable,
  ParamDescEntry,
  RunapiDbConfig,
  RunapiEnv,
  RunapiEnvSelectd,
  RunapiFlow,
  RunapiFlowPage,
  RunapiGlobalParam,
} from './schemas';
