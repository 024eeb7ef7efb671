/**
 * The deployment files (Dockerfile, compose, nginx, Kubernetes) against the code: nothing here can
 * run containers, so what can be checked is checked — every file parses, every setting they give
 * is one Quire reads and passes its validation, ports and paths are the code's, and the image
 * build script runs the Dockerfile's own steps.
 */
import { describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CONFIG_KEYS, loadConfig } from '../../models/platform/config';
import { COLLAB_PATH } from '../../realtime/collabProtocol';
import { ROOT } from '../../server/paths';
import { STOP_MARGIN_MS } from '../../server/startup';

type Doc = Record<string, any>;

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const DEFAULT_PORT = loadConfig({}, '/x').port;
const SOCKET_PATH = /new SocketServer\([^)]*path: '([^']+)'/.exec(read('realtime/index.ts'))![1];
const ENV_EXAMPLE_KEYS = new Set(
  [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]),
);

function yamlFiles(): string[] {
  const found: string[] = [];
  for (const dir of ['deploy/compose', 'deploy/k8s'])
    for (const name of fs.readdirSync(path.join(ROOT, dir)))
      if (/\.ya?ml$/.test(name)) found.push(`${dir}/${name}`);
  return found.sort();
}

function parseYaml(rel: string): Doc[] {
  const docs = parseAllDocuments(read(rel), { merge: true });
  return docs.map((doc) => {
    if (doc.errors.length) throw new Error(`${rel}: ${doc.errors[0].message}`);
    return doc.toJS() as Doc;
  });
}

/** Compose's `${NAME:-default}` as compose itself fills it with nothing set. */
function interpolate(value: unknown): string {
  return String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
}

const compose = {
  small: parseYaml('deploy/compose/docker-compose.yml')[0],
  scaled: parseYaml('deploy/compose/docker-compose.scaled.yml')[0],
};
const k8s = fs
  .readdirSync(path.join(ROOT, 'deploy/k8s'))
  .filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml')
  .flatMap((name) => parseYaml(`deploy/k8s/${name}`));
const ofKind = (kind: string) => k8s.filter((doc) => doc.kind === kind);
const named = (kind: string, name: string) =>
  ofKind(kind).find((doc) => doc.metadata.name === name)!;

/** The Dockerfile's instructions (continuation lines joined), per stage. */
function dockerStages(): { from: string; name: string; steps: [string, string][] }[] {
  const lines = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: { from: string; name: string; steps: [string, string][] }[] = [];
  for (const line of lines) {
    const [, op, rest] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op === 'FROM') {
      const [, from, name] = /^(\S+)\s+AS\s+(\S+)$/i.exec(rest)!;
      stages.push({ from, name, steps: [] });
    } else stages.at(-1)!.steps.push([op, rest.replace(/\s+/g, ' ')]);
  }
  return stages;
}

describe('every file parses', () => {
  test.each(yamlFiles())('%s is valid YAML with at least one document', (rel) => {
    expect(parseYaml(rel).length).toBeGreaterThan(0);
  });

  test('kustomization lists every Kubernetes manifest of the folder', () => {
    const listed = parseYaml('deploy/k8s/kustomization.yaml')[0].resources as string[];
    const present = yamlFiles()
      .filter((rel) => rel.startsWith('deploy/k8s/') && !rel.endsWith('kustomization.yaml'))
      .map((rel) => path.basename(rel));
    expect([...listed].sort()).toEqual(present.sort());
  });
});

describe('settings they give are settings Quire reads, with valid values', () => {
  const composeServices = Object.entries({
    ...(compose.small.services as Record<string, Doc>),
    ...(compose.scaled.services as Record<string, Doc>),
  }).filter(([, service]) => service.image === 'quire:latest');

  test.each(composeServices)('compose service %s', (_name: string, service: Doc) => {
    const env = Object.fromEntries(
      Object.entries(service.environment as Doc).map(([k, v]) => [k, interpolate(v)]),
    );
    for (const key of Object.keys(env)) {
      expect(CONFIG_KEYS).toContain(key);
      expect(ENV_EXAMPLE_KEYS.has(key)).toBe(true);
    }
    expect(() => loadConfig(env, '/x')).not.toThrow();
    expect(loadConfig(env, '/x').port).toBe(DEFAULT_PORT);
    // The data folder is a volume, never the container's layer.
    expect(service.volumes.map((v: string) => v.split(':')[1])).toContain(env.DATA_DIR);
  });

  test('Kubernetes: the ConfigMap, the Secret and each container env, together, load', () => {
    const config = named('ConfigMap', 'quire-config').data as Record<string, string>;
    const secret = named('Secret', 'quire-secrets').stringData as Record<string, string>;
    for (const deployment of ofKind('Deployment')) {
      const container = deployment.spec.template.spec.containers[0];
      const own = Object.fromEntries(
        (container.env as { name: string; value: string }[]).map((e) => [e.name, e.value]),
      );
      const env = { ...config, ...secret, ...own };
      for (const key of Object.keys(env)) {
        expect(CONFIG_KEYS).toContain(key);
        expect(ENV_EXAMPLE_KEYS.has(key)).toBe(true);
      }
      const loaded = loadConfig(env, '/x');
      expect(loaded.port).toBe(DEFAULT_PORT);
      expect(container.envFrom.map((e: Doc) => e.configMapRef?.name ?? e.secretRef?.name)).toEqual([
        'quire-config',
        'quire-secrets',
      ]);
      expect(container.ports[0].containerPort).toBe(loaded.port);
      expect(container.readinessProbe.httpGet.path).toBe('/healthz');
      expect(container.livenessProbe.httpGet.path).toBe('/healthz');
      expect(container.volumeMounts.map((m: Doc) => m.mountPath)).toContain(config.DATA_DIR);
      expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    }
    expect(
      ofKind('Deployment').map((d) => d.spec.template.spec.containers[0].env[0].value),
    ).toEqual(expect.arrayContaining(['api', 'realtime']));
  });
});

describe('ports and paths are the code’s', () => {
  test('the Dockerfile exposes the default port, sets DATA_DIR to its volume and checks /healthz', () => {
    const runtime = dockerStages().at(-1)!;
    const arg = (op: string) => runtime.steps.filter(([o]) => o === op).map(([, a]) => a);
    expect(arg('EXPOSE')).toEqual([String(DEFAULT_PORT)]);
    const env = arg('ENV').join(' ');
    expect(env).toMatch(new RegExp(`PORT=${DEFAULT_PORT}\\b`));
    const dataDir = /DATA_DIR=(\S+)/.exec(env)![1];
    expect(arg('VOLUME')).toEqual([dataDir]);
    expect(arg('HEALTHCHECK')[0]).toMatch(/\/healthz/);
  });

  test('nginx sends the socket paths to realtime with the WebSocket upgrade, the rest to the API', () => {
    const conf = read('deploy/compose/nginx.conf');
    const blocks = [...conf.matchAll(/location\s+(.+?)\s*\{([^}]*)\}/g)].map((m) => ({
      where: m[1],
      body: m[2],
    }));
    const matches = (where: string, url: string) =>
      where.startsWith('~') ? new RegExp(where.slice(1).trim()).test(url) : url.startsWith(where);
    for (const url of [`${SOCKET_PATH}/`, COLLAB_PATH]) {
      const block = blocks.find((b) => matches(b.where, url))!;
      expect(block.body).toContain('proxy_pass http://quire_realtime');
      expect(block.body).toMatch(/proxy_set_header Upgrade \$http_upgrade/);
      expect(block.body).toMatch(/proxy_set_header Connection \$connection_upgrade/);
      expect(Number(/proxy_read_timeout (\d+)s/.exec(block.body)![1])).toBeGreaterThanOrEqual(3600);
    }
    expect(blocks.find((b) => b.where === '/')!.body).toContain('proxy_pass http://quire_api');
    expect(blocks.some((b) => b.where !== '/' && matches(b.where, '/collaborators'))).toBe(false);
    for (const [, upstream] of conf.matchAll(/server (\w+):(\d+);/g))
      expect(['api', 'realtime']).toContain(upstream);
    for (const [, , port] of conf.matchAll(/server (\w+):(\d+);/g))
      expect(Number(port)).toBe(DEFAULT_PORT);
  });

  test('the ingress keeps /socket.io and /collab on realtime with long timeouts; the HPA scales the API', () => {
    const ingress = named('Ingress', 'quire');
    const paths = ingress.spec.rules[0].http.paths as Doc[];
    const serviceFor = (p: string) => paths.find((x) => x.path === p)!.backend.service.name;
    expect(serviceFor(SOCKET_PATH)).toBe('quire-realtime');
    expect(serviceFor(COLLAB_PATH)).toBe('quire-realtime');
    expect(serviceFor('/')).toBe('quire-api');
    const notes = ingress.metadata.annotations as Record<string, string>;
    expect(Number(notes['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(
      3600,
    );
    for (const service of ofKind('Service'))
      expect(service.spec.ports[0].targetPort).toBe(DEFAULT_PORT);
    const hpa = named('HorizontalPodAutoscaler', 'quire-api');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'quire-api' });
    expect(named('Deployment', 'quire-api')).toBeDefined();
  });

  test('orchestrators wait longer than a SIGTERM drain can take (SHUTDOWN_GRACE_MS + the margin)', () => {
    const longest = (env: Doc | undefined) =>
      loadConfig(
        Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, interpolate(v)])),
        '/x',
      ).shutdownGraceMs + STOP_MARGIN_MS;
    const quireServices = Object.entries({ ...compose.small.services, ...compose.scaled.services })
      .filter(([, service]) => String((service as Doc).image ?? '').startsWith('quire'))
      .map(([, service]) => service as Doc);
    expect(quireServices.length).toBeGreaterThanOrEqual(2);
    for (const service of quireServices) {
      const seconds = Number(/^(\d+)s$/.exec(String(service.stop_grace_period))?.[1]);
      expect(seconds * 1000).toBeGreaterThan(longest(service.environment as Doc));
    }
    const shared = named('ConfigMap', 'quire-config').data as Doc;
    for (const deployment of ofKind('Deployment'))
      expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
        longest(shared),
      );
  });

  test('the scaled compose: 2 API, 2 realtime, a 3-member MongoDB 7 replica set the URI names, Redis', () => {
    const s = compose.scaled.services;
    expect([s.api.deploy.replicas, s.realtime.deploy.replicas]).toEqual([2, 2]);
    expect([s.api.environment.ROLE, s.realtime.environment.ROLE]).toEqual(['api', 'realtime']);
    const members = ['mongo1', 'mongo2', 'mongo3'];
    for (const m of members) {
      expect(s[m].image).toBe('mongo:7');
      expect(s[m].command.join(' ')).toContain('--replSet rs0');
    }
    const uri = s.api.environment.MONGODB_URI as string;
    for (const m of members) expect(uri).toContain(`${m}:27017`);
    expect(uri).toContain('replicaSet=rs0');
    const init = s['mongo-init'].command.join(' ');
    for (const m of members) expect(init).toContain(`host: "${m}:27017"`);
    expect(s.api.depends_on['mongo-init'].condition).toBe('service_completed_successfully');
    expect(s.api.environment.REDIS_URL).toBe('redis://redis:6379');
    expect(s.redis.image).toMatch(/^redis:/);
  });
});

describe('the image', () => {
  test('two node:20 slim stages; the runtime one runs as a non-root user, without npm or build tools', () => {
    const stages = dockerStages();
    expect(stages.map((s) => [s.from, s.name])).toEqual([
      ['node:20-bookworm-slim', 'build'],
      ['node:20-bookworm-slim', 'runtime'],
    ]);
    const runtime = stages[1].steps;
    const users = runtime.filter(([op]) => op === 'USER').map(([, a]) => a);
    expect(users.length).toBe(1);
    expect(['root', '0']).not.toContain(users[0]);
    expect(runtime.some(([op, a]) => op === 'COPY' && a.startsWith('--from=build'))).toBe(true);
    for (const [op, a] of runtime.filter(([o]) => o === 'RUN')) {
      expect(`${op} ${a}`).not.toMatch(/\bnpm\b|build-essential|\bgcc\b|\bmake\b|python/);
    }
    // The CMD is `npm start`'s command itself.
    const cmd = JSON.parse(runtime.find(([op]) => op === 'CMD')![1]) as string[];
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts
      .start;
    expect(cmd.join(' ')).toBe(start);
  });

  test('deploy/build-steps.sh runs exactly the build stage’s RUN steps, in order', () => {
    const script = read('deploy/build-steps.sh');
    const block = /STEPS=\(\n([\s\S]*?)\n\)/.exec(script)![1];
    const steps = [...block.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    const runs = dockerStages()[0]
      .steps.filter(([op]) => op === 'RUN')
      .map(([, a]) => a);
    expect(steps).toEqual(runs);
    expect(fs.statSync(path.join(ROOT, 'deploy/build-steps.sh')).mode & 0o111).not.toBe(0);
  });

  test('.dockerignore keeps installed, built, data and secret files out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(ignored).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'dist-server', 'data', '.env', '.git']),
    );
  });
});
