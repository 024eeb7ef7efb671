/**
 * httpRelay/send as installed by default (HTTP_RELAY_ALLOW_HOSTS empty): a server on this machine
 * is refused whichever way it is named (127.0.0.1, localhost, ::1, an IPv4-mapped IPv6 address,
 * 0.0.0.0), with a message naming the address and why, and the server never sees the request.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { apiSuite } from '../helpers/apiSuite';
import { type HttpTarget, startHttpTarget } from '../helpers/assistantServers';

const suite = apiSuite();
let target: HttpTarget;

beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(async () => {
  await target.close();
});

test.each(['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0'])(
  'refuses %s: the relay does not reach this machine',
  async (host) => {
    const port = new URL(target.url).port;
    const answer = await suite
      .as(suite.owner)
      .call('httpRelay/send', { url: `http://${host}:${port}/echo` });
    expect(answer.body.error_code).toBe(10403);
    expect(answer.body.error_message).toMatch(
      /^The relay does not connect to .+: an? (loopback|unspecified) address$/,
    );
    expect(target.seen).toHaveLength(0);
  },
);
