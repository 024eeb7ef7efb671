/** Mocks: mock endpoints for API pages (path matching and template rendering). */
export { type MockAnswer, mockOfPage, saveMock, serveMockByKey, serveMockByPath } from './mocks';
