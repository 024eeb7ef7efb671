/**
 * The web app build: sources in web/, output in dist/ (served by api/web.ts). Vite 8 compiles
 * TSX itself (no React plugin: its peer range conflicts with jest's babel). React, the router and
 * i18next get their own chunks so an app change does not invalidate the cached framework code.
 * Ant Design does not: one antd chunk made every reader download the editor's and workspace's
 * components too (80 KiB gzip more for an anonymous reader); the entry's and the reader's code are
 * grouped by what they import instead (routeChunks).
 * Every text file also gets a brotli (.br) and a gzip (.gz) copy at build time, which api/web.ts
 * sends by content negotiation: the server never compresses per request.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { READER_SECTIONS } from './web/i18n/sections';

const vendorGroups: {
  name: string;
  test: RegExp | ((id: string) => boolean);
  includeDependenciesRecursively?: boolean;
}[] = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
];

/**
 * `import { Button, Tooltip } from 'antd'` (and the same from '@ant-design/icons') rewritten in our
 * own sources to one import per component module (`antd/es/button`…), read off the packages' own
 * barrel files. The bundle is the same, but the module graph now says which components a screen
 * uses instead of "all of antd", which routeChunks() below needs. The imports replacing one
 * statement stay on its line, so the lines after it keep their source-map positions.
 */
function directComponentImports(): Plugin {
  const barrels: { source: string; file: string }[] = [
    { source: 'antd', file: 'node_modules/antd/es/index.js' },
    { source: '@ant-design/icons', file: 'node_modules/@ant-design/icons/es/icons/index.js' },
  ];
  const modules = new Map<string, Map<string, string>>();
  for (const { source, file } of barrels) {
    const text = readFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), 'utf8');
    const dir = `${source === 'antd' ? 'antd/es' : '@ant-design/icons/es/icons'}`;
    const names = new Map<string, string>();
    for (const [, name, rel] of text.matchAll(
      /export \{ default as (\w+) \} from ["']\.\/([\w-]+)["']/g,
    ))
      names.set(name, `${dir}/${rel}`);
    modules.set(source, names);
  }
  const statement = /import\s*\{([^}]*)\}\s*from\s*["'](antd|@ant-design\/icons)["'];?/g;
  return {
    name: 'quire:direct-component-imports',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]web[\\/].*\.tsx?$/.test(id) || id.includes('node_modules')) return null;
      let changed = false;
      const out = code.replace(statement, (whole, list: string, source: string) => {
        const names = modules.get(source)!;
        const kept: string[] = [];
        const direct: string[] = [];
        for (const part of list
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)) {
          const [imported, local = imported] = part.split(/\s+as\s+/).map((p) => p.trim());
          const target = names.get(imported);
          if (target) direct.push(`import ${local} from '${target}';`);
          else kept.push(part);
        }
        if (!direct.length) return whole;
        changed = true;
        if (kept.length) direct.push(`import { ${kept.join(', ')} } from '${source}';`);
        return direct.join(' ');
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

type Group = (typeof vendorGroups)[number];

/**
 * Chunks by static reachability (issue #22): `app`, every module the entry (web/main.tsx)
 * imports; `reader-shared`, the reader route's modules the editor route imports too (antd's
 * button, tooltip, input…); `reader`, the rest of the reader's (its screens, the tree, the
 * Markdown renderer). Left to automatic splitting by importer, the same code came as ~60 small
 * files and gzip compresses each alone: as three it is ~25 KiB gzip smaller for an anonymous
 * reader, in fewer requests, and the editor does not download the reader's own part. Other
 * screens that share a module with the reader load the chunk that holds it. Captured modules'
 * dependencies are not pulled in after them (includeDependenciesRecursively): the entry never
 * waits for reader code.
 */
function routeChunks(): { plugin: Plugin; groups: Group[] } {
  const entry = new Set<string>();
  const reader = new Set<string>();
  const editor = new Set<string>();
  /** The reader's modules the editor imports too. */
  const shared = new Set<string>();
  const plugin: Plugin = {
    name: 'quire:route-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      shared.clear();
      const closure = (file: RegExp, into: Set<string>, skip?: Set<string>) => {
        into.clear();
        const todo = ids.filter((id) => file.test(id));
        while (todo.length) {
          const id = todo.pop()!;
          if (into.has(id) || skip?.has(id)) continue;
          into.add(id);
          todo.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      closure(/[\\/]web[\\/]main\.tsx$/, entry);
      closure(/[\\/]web[\\/]features[\\/]reader[\\/]ReaderRoute\.tsx$/, reader, entry);
      closure(/[\\/]web[\\/]features[\\/]editor[\\/]EditorRoute\.tsx$/, editor, entry);
      for (const id of reader) if (editor.has(id)) shared.add(id);
    },
  };
  const group = (name: string, members: Set<string>): Group => ({
    name,
    test: (id) => members.has(id),
    includeDependenciesRecursively: false,
  });
  return {
    plugin,
    groups: [
      group('app', entry),
      group('reader-shared', shared),
      group('reader', reader), // what is left: the reader's alone
    ],
  };
}
const routes = routeChunks();

/**
 * antd's form context (imported by Input, Checkbox, Dropdown's ContextIsolator… — every screen)
 * takes only `FormProvider` from @rc-component/form, but that package's index attaches its parts
 * to the Form export, which no bundler can drop: every reader downloaded the whole form engine
 * and validator (~13 KiB gzip). Pointing that one import at the module defining FormProvider
 * keeps the same provider (Form.js imports the very same module) without the rest.
 */
function formContextOnly(): Plugin {
  return {
    name: 'quire:antd-form-context-only',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== '@rc-component/form' || !importer) return null;
      if (!/[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer)) return null;
      const full = await this.resolve(source, importer, { skipSelf: true });
      return full ? full.id.replace(/index\.js$/, 'FormContext.js') : null;
    },
  };
}

/**
 * Each catalogue (web/i18n/locales/<locale>.json) as two modules: `virtual:catalogue/<locale>/reader`
 * (the sections of web/i18n/sections.ts) and `…/rest`; `virtual:catalogue-loaders` maps every
 * locale to both loaders. The catalogues stay one file per language for translators.
 */
function catalogueParts(): Plugin {
  const PREFIX = 'virtual:catalogue';
  const localesDir = fileURLToPath(new URL('./web/i18n/locales/', import.meta.url));
  const locales = () =>
    readdirSync(localesDir)
      .filter((file) => /^[a-z]{2}_[a-z]{2}\.json$/.test(file))
      .map((file) => file.slice(0, -5));
  return {
    name: 'quire:catalogue-parts',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : null),
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      if (id === `\0${PREFIX}-loaders`) {
        const entries = locales().map(
          (locale) =>
            `${locale}: { reader: () => import('${PREFIX}/${locale}/reader'), ` +
            `rest: () => import('${PREFIX}/${locale}/rest') }`,
        );
        return `export default { ${entries.join(', ')} };`;
      }
      const match = /^\0virtual:catalogue\/([a-z]{2}_[a-z]{2})\/(reader|rest)$/.exec(id);
      if (!match) return null;
      const file = `${localesDir}${match[1]}.json`;
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const wanted = match[2] === 'reader';
      const part = Object.fromEntries(
        Object.entries(catalogue).filter(
          ([section]) => READER_SECTIONS.includes(section) === wanted,
        ),
      );
      return `export default ${JSON.stringify(part)};`;
    },
  };
}

/**
 * The offline service worker (web/sw/sw.js, issue #41) emitted as /sw.js — at the root, so its
 * scope is the whole app — with the build's file list (the app shell it caches at install) and a
 * version derived from both: a new build is a new worker, which drops the old shell. Nothing of it
 * is in any chunk: only a user who makes an item available offline registers it.
 */
function serviceWorker(): Plugin {
  const source = fileURLToPath(new URL('./web/sw/sw.js', import.meta.url));
  return {
    name: 'quire:service-worker',
    apply: 'build',
    buildStart() {
      this.addWatchFile(source);
    },
    // After Vite's own generateBundle work, which drops the empty JS chunks of CSS-only modules.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const shell = Object.keys(bundle)
          .filter((file) => !/\.(br|gz)$/.test(file) && file !== 'index.html')
          .sort()
          .map((file) => `/${file}`);
        const code = readFileSync(source, 'utf8');
        const version = createHash('sha256')
          .update(shell.join('\n'))
          .update(code)
          .digest('hex')
          .slice(0, 12);
        this.emitFile({
          type: 'asset',
          fileName: 'sw.js',
          source:
            `const SHELL = ${JSON.stringify(shell)};\nconst VERSION = ${JSON.stringify(version)};\n` +
            code,
        });
      },
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  base: '/',
  publicDir: false,
  plugins: [
    formContextOnly(),
    directComponentImports(),
    catalogueParts(),
    routes.plugin,
    serviceWorker(),
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      // Small files are not worth a second request path; copies no smaller are skipped anyway.
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [...vendorGroups, ...routes.groups] },
        // Catalogue parts by language and part (catalogue-zh_cn-rest-<hash>.js), not all "reader"/"rest".
        chunkFileNames: (chunk) => {
          const part = /^\0virtual:catalogue\/([a-z_]+)\/(reader|rest)$/.exec(
            chunk.facadeModuleId ?? '',
          );
          return part
            ? `assets/catalogue-${part[1]}-${part[2]}-[hash].js`
            : 'assets/[name]-[hash].js';
        },
      },
      // antd marks its modules "use client" (for React Server Components): meaningless in an SPA.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  server: {
    // `npx vite` for UI work: API calls go to a running `npm start`.
    proxy: {
      '/api': 'http://localhost:4999',
      '/server': 'http://localhost:4999',
      '/socket.io': { target: 'ws://localhost:4999', ws: true },
    },
  },
});
