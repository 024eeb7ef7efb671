/** The transfer domain's collections (mongoose models and document types). They import only mongoose, so any domain may read them without an import cycle. */
export * from './exportLog';
