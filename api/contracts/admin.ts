/** The site administrator's controllers (reference accounts §13) and the external logins. */
import { z } from 'zod';
import { action, id, int, nothing, raw, str } from './coerce';
import { LoginData } from './user';

export const AdminUserRow = z.object({
  uid: z.string(),
  username: z.string(),
  name: z.string(),
  groupid: z.string(),
  email: z.string(),
  is_sso: z.string(),
  reg_time: z.string(),
  last_login_time: z.string(),
});

export const AdminItemRow = z.looseObject({
  item_id: z.union([z.string(), z.number()]),
  item_name: z.string(),
  item_description: z.string(),
  item_domain: z.string(),
  /** The owner's username. */
  username: z.string(),
  addtime: z.string(),
  is_private: z.number(),
  member_num: z.number(),
});

const paging = { page: int(1), count: int(20) };

/** Actions ShowDoc's front end calls that its open-source server lacks: every answer refuses. */
const refused = z.never();
const missing = action({}, refused);
const secretKey = z.object({ login_secret_key: z.string() });

export const adminUserContract = {
  getList: action(
    { username: str(), ...paging },
    z.object({ total: z.number(), users: z.array(AdminUserRow) }),
  ),
  addUser: action({ uid: id(), username: str(), password: str(), name: str() }, nothing),
  deleteUser: action({ uid: id() }, nothing),
  ban: missing,
  loginLog: missing,
};

export const adminItemContract = {
  getList: action(
    {
      item_name: str(),
      username: str(),
      item_type: int(),
      privacy_type: int(),
      is_del: int(),
      ...paging,
    },
    z.object({ total: z.number(), items: z.array(AdminItemRow) }),
  ),
  deleteItem: action({ item_id: id() }, nothing),
  recoverItem: action({ item_id: id() }, nothing),
  /** Deletes for good (pages, files, members): only from the recycle bin of the back office. */
  hardDeleteItem: action({ item_id: id() }, nothing),
  addKeyword: missing,
  ban: missing,
  white: missing,
  recommendItem: missing,
  deleteRecommend: missing,
  getVisitList: missing,
  attorn: action({ item_id: id(), username: str() }, z.looseObject({ item_id: z.unknown() })),
};

/** Settings travel as given (each key is checked by the settings module, not by shape here). */
export const adminSettingContract = {
  loadConfig: action({}, z.record(z.string(), z.unknown())),
  saveConfig: action({}, nothing),
  loadLdapConfig: action({}, z.looseObject({ ldap_open: z.unknown(), ldap_form: z.unknown() })),
  saveLdapConfig: action({ ldap_open: raw(), ldap_form: raw() }, nothing),
  loadOauth2Config: action(
    {},
    z.looseObject({ oauth2_open: z.unknown(), oauth2_form: z.unknown() }),
  ),
  saveOauth2Config: action({ oauth2_open: raw(), oauth2_form: raw() }, nothing),
  getLoginSecretKey: action({}, secretKey),
  resetLoginSecretKey: action({}, secretKey),
  /** Imports the directory's users; refuses while LDAP is off. */
  syncLdapUsers: action({}, z.object({ sync_count: z.number() })),
  /** There is no AI service in this edition: the test always refuses, after its checks. */
  testAiService: action(
    { open_ai_host: str(), open_ai_key: str(), open_api_host: str(), open_api_key: str() },
    refused,
  ),
  loadOauth: missing,
  saveOauth: missing,
};

export const adminUpdateContract = {
  checkUpdate: action(
    {},
    z.object({ version: z.string(), new_version: z.string(), url: z.string() }),
  ),
  /** Self-update is refused (deployments update by image or package). */
  download: action({}, refused),
  updateFiles: action({}, refused),
};

export const extLoginContract = {
  /** Redeems the one-time code of an OAuth2 / secret-key login for a session token. */
  redeem: action({ login_code: str() }, LoginData.pick({ user_token: true })),
};
