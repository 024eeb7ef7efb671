/** The accounts domain's collections (mongoose models and document types). They import only mongoose, so any domain may read them without an import cycle. */
export * from './captcha';
export * from './loginAttempt';
export * from './user';
export * from './userSetting';
export * from './userToken';
export * from './extLoginTicket';
