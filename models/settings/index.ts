/** Settings: site-wide options. */
export {
  type AiService,
  SETTING_ALIASES,
  aliasesOf,
  decodeJsonOption,
  getAiService,
  getSetting,
  getSiteSettings,
  setSettings,
} from './settings';
export {
  SITE_CONFIG_KEYS,
  SITE_CONFIG_PARAMS,
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
