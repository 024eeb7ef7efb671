/**
 * A throwaway OpenLDAP `slapd` for a test file: a temp folder with its own slapd.conf (mdb
 * backend, the core/cosine/inetorgperson schemas), the directory loaded with `slapadd` before the
 * start, its own free loopback port, stopped (and the folder removed) in `stop()`. There is no
 * fallback: a test that needs LDAP fails when /usr/sbin/slapd is missing (.ci/run installs it).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canConnect, startDaemon } from './daemon';

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';

export const LDAP_BASE = 'dc=quire,dc=test';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_BASE}`;

export interface LdapPerson {
  uid: string;
  cn: string;
  displayName: string;
  password: string;
}

export interface TestSlapd {
  host: string;
  port: number;
  adminPassword: string;
  stop(): Promise<void>;
}

export async function startSlapd(people: LdapPerson[], adminPassword: string): Promise<TestSlapd> {
  if (!fs.existsSync(SLAPD))
    throw new Error('slapd is not installed: apt-get install -y slapd (.ci/run does this)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-slapd-'));
  const dbDir = path.join(dir, 'db');
  fs.mkdirSync(dbDir);
  const conf = path.join(dir, 'slapd.conf');
  fs.writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      'maxsize 10485760',
      `suffix "${LDAP_BASE}"`,
      `rootdn "${LDAP_ADMIN_DN}"`,
      `rootpw ${adminPassword}`,
      `directory ${dbDir}`,
      'access to attrs=userPassword by anonymous auth by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  const ldif = [
    `dn: ${LDAP_BASE}\nobjectClass: dcObject\nobjectClass: organization\no: Quire test\ndc: quire`,
    `dn: ou=people,${LDAP_BASE}\nobjectClass: organizationalUnit\nou: people`,
    ...people.map(
      (p) =>
        `dn: uid=${p.uid},ou=people,${LDAP_BASE}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.cn}\nsn: ${p.cn}\ndisplayName: ${p.displayName}\nuserPassword: ${p.password}`,
    ),
  ].join('\n\n');
  const ldifPath = path.join(dir, 'data.ldif');
  fs.writeFileSync(ldifPath, `${ldif}\n`);
  const added = spawnSync(SLAPADD, ['-f', conf, '-l', ldifPath], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`slapadd failed: ${added.stderr}`);

  const daemon = await startDaemon({
    command: SLAPD,
    args: (port) => ['-f', conf, '-h', `ldap://127.0.0.1:${port}/`, '-d', '0'],
    ready: canConnect,
    timeoutMs: 15_000,
  });
  return {
    host: '127.0.0.1',
    port: daemon.port,
    adminPassword,
    async stop() {
      await daemon.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
