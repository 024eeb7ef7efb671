/** Settings: site-wide options. */
export {
  type AiService,
  decodeJsonOption,
  getAiService,
  getSetting,
  getSiteSettings,
  setSettings,
} from './settings';
export {
  SITE_CONFIG_KEYS,
  type ConfigInput,
  getLoginSecretKey,
  loadConfig,
  loadLdapConfig,
  loadOauth2Config,
  resetLoginSecretKey,
  saveConfig,
  prepareLdapConfig,
  saveOauth2Config,
} from './adminSettings';
