/**
 * A multipart body that ends before its closing boundary must be answered with a clean error —
 * never take the process down. busboy reports `Unexpected end of form` on the file stream itself;
 * an unlistened stream error is thrown by Node and ends the process. Run in a child process so a
 * crash shows up as a dead server rather than a dead test worker.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { killAllChildren, startScript, type RunningScript } from '../helpers/processes';
import { makeTempDir } from '../helpers/server';
import { rm } from 'node:fs/promises';

let child: RunningScript;
let port: number;
let dir: string;

/** Sends raw bytes (exactly Content-Length of them), so the form ends mid-file. */
function rawRequest(target: string, head: string, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}\r\n`);
    socket.write(body);
  });
}

function truncatedForm(fileField: string, withToken: boolean): { head: string; body: Buffer } {
  const boundary = '----quirecut';
  const fields = withToken
    ? `--${boundary}\r\nContent-Disposition: form-data; name="item_id"\r\n\r\n1\r\n`
    : '';
  const body = Buffer.from(
    fields +
      `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n\x89PNG\r\n',
  );
  return {
    head:
      `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n`,
    body,
  };
}

beforeAll(async () => {
  dir = await makeTempDir();
  child = startScript('start', [], {
    cwd: dir,
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      ADMIN_PASSWORD: 'Admin-pass-1',
      LOG_LEVEL: 'info',
    },
  });
  const out = await child.waitForOutput(/http:\/\/[^\s]+:(\d+)/);
  port = Number(/http:\/\/[^\s]+:(\d+)/.exec(out)![1]);
}, 120_000);

afterAll(async () => {
  await killAllChildren();
  await rm(dir, { recursive: true, force: true });
});

describe('a multipart body cut before its closing boundary', () => {
  for (const [route, field] of [
    ['/api/page/upload', 'file'],
    ['/api/page/uploadImg', 'editormd-image-file'],
    ['/server/index.php?s=/api/page/uploadImg', 'editormd-image-file'],
  ] as const) {
    test(`${route} answers an error and the server keeps serving`, async () => {
      const { head, body } = truncatedForm(field, false);
      const answer = await rawRequest(route, head, body);
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toMatch(/"(error_code|success)"/);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect(child.child.exitCode).toBeNull();
      // Under the supervisor a crash would be hidden by a restart: it must not have happened.
      expect(child.stdout()).not.toMatch(/exited unexpectedly/);
    });
  }
});
