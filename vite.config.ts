/**
 * The web app build: sources in web/, output in dist/ (served by api/web.ts). Vite 8 compiles
 * TSX itself (no React plugin: its peer range conflicts with jest's babel). React, the router and
 * i18next get their own chunks so an app change does not invalidate the cached framework code.
 * Ant Design does not: split by importer, each screen downloads only the components it uses (one
 * antd chunk made every reader download the editor's and workspace's components too — 80 KiB gzip
 * more for an anonymous reader).
 * Every text file also gets a brotli (.br) and a gzip (.gz) copy at build time, which api/web.ts
 * sends by content negotiation: the server never compresses per request.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const vendorGroups: { name: string; test: RegExp }[] = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'vendor-i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
];

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

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  base: '/',
  publicDir: false,
  plugins: [
    formContextOnly(),
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
      output: { codeSplitting: { groups: vendorGroups } },
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
