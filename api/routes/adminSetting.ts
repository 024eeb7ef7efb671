/**
 * `adminSetting/*` (reference accounts §9.23): site settings, the LDAP and OAuth2 forms and the
 * generic-access login secret key. Secrets are write-only; rules in models/adminSettings.ts.
 */
import {
  SITE_CONFIG_PARAMS,
  aliasesOf,
  getLoginSecretKey,
  loadConfig,
  loadLdapConfig,
  loadOauth2Config,
  resetLoginSecretKey,
  saveConfig,
  saveOauth2Config,
  type ConfigInput,
} from '../../models/settings';
import { saveLdapConfig, syncLdapUsers } from '../../models/accounts';
import { adminActionMissing, aiServiceTest } from '../../models/compat';
import { requireAdmin } from '../auth';
import { adminSettingContract } from '../contracts';
import { defineController } from '../registry';

/** A setting sent under its Quire name or one of the spec's spellings. */
function aliased(input: Readonly<Record<string, string>>, name: string): string {
  return [name, ...aliasesOf(name)].map((n) => input[n]).find(Boolean) ?? '';
}

export const adminSettingController = defineController('adminSetting', adminSettingContract, {
  async loadConfig(ctx) {
    const { actor } = await requireAdmin(ctx);
    return loadConfig(actor);
  },

  async saveConfig(ctx) {
    const { actor } = await requireAdmin(ctx);
    const input: ConfigInput = {};
    for (const key of SITE_CONFIG_PARAMS)
      if (ctx.params.has(key)) input[key] = ctx.params.value(key);
    await saveConfig(actor, input);
    return [];
  },

  async loadLdapConfig(ctx) {
    const { actor } = await requireAdmin(ctx);
    return loadLdapConfig(actor);
  },

  async saveLdapConfig(ctx) {
    const { actor } = await requireAdmin(ctx);
    await saveLdapConfig(actor, ctx.input.ldap_open, ctx.input.ldap_form);
    return [];
  },

  async syncLdapUsers(ctx) {
    const { actor } = await requireAdmin(ctx);
    return syncLdapUsers(actor);
  },

  async loadOauth2Config(ctx) {
    const { actor } = await requireAdmin(ctx);
    return loadOauth2Config(actor);
  },

  async saveOauth2Config(ctx) {
    const { actor } = await requireAdmin(ctx);
    await saveOauth2Config(actor, ctx.input.oauth2_open, ctx.input.oauth2_form);
    return [];
  },

  async getLoginSecretKey(ctx) {
    const { actor } = await requireAdmin(ctx);
    return getLoginSecretKey(actor);
  },

  async resetLoginSecretKey(ctx) {
    const { actor } = await requireAdmin(ctx);
    return resetLoginSecretKey(actor);
  },

  async testAiService(ctx) {
    const { actor } = await requireAdmin(ctx);
    return aiServiceTest(actor, {
      host: aliased(ctx.input, 'open_ai_host'),
      key: aliased(ctx.input, 'open_ai_key'),
    });
  },

  // ShowDoc's front end still calls the old names; its server answers only *Oauth2Config.
  async loadOauth(ctx) {
    const { actor } = await requireAdmin(ctx);
    return adminActionMissing(actor);
  },

  async saveOauth(ctx) {
    const { actor } = await requireAdmin(ctx);
    return adminActionMissing(actor);
  },
});
