/** Templates: personal and item page templates. */
export {
  deleteTemplate,
  listItemTemplates,
  listMyTemplates,
  saveTemplate,
  shareTemplate,
  templateShares,
} from './templates';
