// A real OAuth2 provider for tests (oauth2-mock-server, an ES module, so it runs in its own Node
// process instead of inside jest). It prints `{"url": ...}` once listening. Only codes it issued
// are accepted at /token, each once; /userinfo names the user last set with a `user <name>` line
// on stdin.
import readline from 'node:readline';
import { OAuth2Server } from 'oauth2-mock-server';

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
const issued = new Set();
let username = 'oauth_user';

server.service.on('beforeAuthorizeRedirect', (redirect) => {
  issued.add(redirect.url.searchParams.get('code'));
});
server.service.on('beforeResponse', (response, req) => {
  if (req.body.grant_type === 'authorization_code' && !issued.delete(req.body.code)) {
    response.statusCode = 400;
    response.body = { error: 'invalid_grant' };
  }
});
server.service.on('beforeUserinfo', (response) => {
  response.body = {
    sub: `sub-${username}`,
    preferred_username: username,
    name: `Person ${username}`,
  };
});

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, value] = line.trim().split(/\s+/);
  if (command === 'user') username = value;
  process.stdout.write(`${JSON.stringify({ ok: command })}\n`);
});

await server.start(0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ url: server.issuer.url })}\n`);
