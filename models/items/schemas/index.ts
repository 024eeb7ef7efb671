/** The items domain's collections (mongoose models and document types). They import only mongoose, so any domain may read them without an import cycle. */
export * from './item';
export * from './itemChangeLog';
export * from './itemGroup';
export * from './itemSort';
export * from './itemStar';
export * from './itemToken';
export * from './itemTop';
