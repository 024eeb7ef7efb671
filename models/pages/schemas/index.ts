/** The pages domain's collections (mongoose models and document types). They import only mongoose, so any domain may read them without an import cycle. */
export * from './page';
export * from './pageDraft';
export * from './pageHistory';
export * from './pageLock';
export * from './recycle';
export * from './singlePage';
