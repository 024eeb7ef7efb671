/**
 * Starts test/helpers/oauth2ProviderProcess.mjs (a real oauth2-mock-server) in a child Node process on a
 * free loopback port, and lets a test choose the user its /userinfo reports.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

export interface TestOAuth2Provider {
  /** e.g. `http://127.0.0.1:40123` */
  url: string;
  host: string;
  setUser(username: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startOAuth2Provider(): Promise<TestOAuth2Provider> {
  const child = spawn(process.execPath, [path.join(__dirname, 'oauth2ProviderProcess.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      waiting.push(resolve);
      child.once('exit', (code) => reject(new Error(`OAuth2 provider exited (${code})`)));
    });
  const { url: issuer } = JSON.parse(await nextLine()) as { url: string };
  // The issuer says "localhost", which may resolve to ::1; the server listens on 127.0.0.1.
  const host = `127.0.0.1:${new URL(issuer).port}`;
  return {
    url: `http://${host}`,
    host,
    async setUser(username) {
      const answered = nextLine();
      child.stdin!.write(`user ${username}\n`);
      await answered;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
