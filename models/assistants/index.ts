/**
 * Assistants of the page editor: the AI writing assistant (`ai/create`) and the HTTP test tool's
 * server relay (`httpRelay/send`).
 */
export { type EventSink, openAiClient, type StreamError, writeAiAnswer } from './aiWriter';
export { RELAY_LIMITS, type RelayAnswer, type RelayInput, relayHttpRequest } from './httpRelay';
