/** Settings: site-wide options. */
export { decodeJsonOption, getSetting, getSiteSettings } from './settings';
export {
  SITE_CONFIG_KEYS,
  type ConfigInput,
  getLoginSecretKey,
  loadConfig,
  loadLdapConfig,
  loadOauth2Config,
  resetLoginSecretKey,
  saveConfig,
  saveLdapConfig,
  saveOauth2Config,
} from './adminSettings';
