/** The members domain's collections (mongoose models and document types). They import only mongoose, so any domain may read them without an import cycle. */
export * from './itemMember';
export * from './team';
export * from './teamItem';
export * from './teamItemMember';
export * from './teamMember';
