/** Templates: personal and item page templates. */
export {
  deleteTemplate,
  listItemTemplates,
  listMyTemplates,
  purgeItemTemplateShares,
  saveTemplate,
  shareTemplate,
  templateShares,
} from './templates';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { Template, TemplateItem } from './schemas';
export type { TemplateDoc, TemplateItemDoc } from './schemas';
