/**
 * The first start of a database creates the site admin `showdoc` (groupid 1) — exactly once.
 *
 * ShowDoc ships that account with a well-known default password; Quire never does: the password is
 * ADMIN_PASSWORD, or a random one that is printed once to the console (not to the JSON log, which
 * may be shipped elsewhere). A marker in the `options` collection records that the bootstrap ran,
 * so deleting or renaming the admin later, or changing ADMIN_PASSWORD, never brings it back.
 */
import { randomBytes } from 'node:crypto';
import { connection } from '../platform';
import { createUser, findUserByName } from './users';

export const FIRST_ADMIN_USERNAME = 'showdoc';
const MARKER = 'quire_first_admin_created';

function optionsCollection() {
  return connection().collection<{ option_name: string; option_value: string }>('options');
}

/** 16 characters from a 96-bit draw, URL-safe so it can be typed and pasted anywhere. */
function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}

export type FirstAdminOutcome =
  | { created: false }
  | { created: true; username: string; passwordSource: 'ADMIN_PASSWORD' | 'generated' };

/**
 * Creates the admin if this database never had one made. `print` receives the console message
 * (with the generated password, when there is one).
 */
export async function ensureFirstAdmin(options: {
  adminPassword: string;
  print: (text: string) => void;
}): Promise<FirstAdminOutcome> {
  const optionRows = optionsCollection();
  if (await optionRows.findOne({ option_name: MARKER })) return { created: false };

  let outcome: FirstAdminOutcome = { created: false };
  // An existing `showdoc` (e.g. data imported from ShowDoc) is kept as it is.
  if (!(await findUserByName(FIRST_ADMIN_USERNAME))) {
    const password = options.adminPassword || randomPassword();
    try {
      await createUser({ username: FIRST_ADMIN_USERNAME, password, admin: true });
      outcome = {
        created: true,
        username: FIRST_ADMIN_USERNAME,
        passwordSource: options.adminPassword ? 'ADMIN_PASSWORD' : 'generated',
      };
      options.print(
        options.adminPassword
          ? `Created the admin account "${FIRST_ADMIN_USERNAME}" with the password from ADMIN_PASSWORD.`
          : [
              '',
              '  ┌──────────────────────────────────────────────────────────────────┐',
              `  │ Created the admin account "${FIRST_ADMIN_USERNAME}".`,
              `  │ Password: ${password}`,
              '  │ It is shown only this once. Change it after logging in, or with',
              `  │   npm run quire -- user:password ${FIRST_ADMIN_USERNAME} <new password>`,
              '  └──────────────────────────────────────────────────────────────────┘',
              '',
            ].join('\n'),
      );
    } catch (error) {
      // Another process sharing this database created it first: nothing to announce.
      if (!(await findUserByName(FIRST_ADMIN_USERNAME))) throw error;
    }
  }
  await optionRows.updateOne(
    { option_name: MARKER },
    { $setOnInsert: { option_name: MARKER, option_value: String(Math.floor(Date.now() / 1000)) } },
    { upsert: true },
  );
  return outcome;
}
