/** Mocks: mock endpoints for API pages (path matching and template rendering). */
export { type MockAnswer, mockOfPage, saveMock, serveMockByKey, serveMockByPath } from './mocks';
export { purgeItemMocks } from './itemPurge';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { Mock } from './schemas';
