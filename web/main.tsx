/**
 * Browser entry: a reader's first requests, i18n (the first render is already in the right
 * language), then the app.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { configureApiClient } from './api/request';
import { App } from './App';
import { prefetchFromAddress } from './features/reader/prefetch';
import { DEFAULT_LOCALE, initI18n, setLanguage } from './i18n';

// Set before any request: the missing-item rule may apply to the early reader requests below
// (the hooks that need React — alerts, router navigation — are set by ApiBridge).
configureApiClient({ resetLanguage: () => setLanguage(DEFAULT_LOCALE) });
// A reader's data requests start now, and so does the download of the reader's code: not after
// the catalogue is in and the app has rendered (the route's lazy import then finds it under way).
if (prefetchFromAddress(window.location.pathname, window.location.search))
  import('./features/reader/ReaderRoute').catch(() => {}); // the route reports a failure

// Offline items (issue #41): their code loads only in a browser that keeps some (the key is
// features/offline/store.ts OFFLINE_KEY, spelled out so the entry imports nothing of it).
try {
  if (localStorage.getItem('quire.offline')) void import('./features/offline/boot');
} catch {
  // storage disabled: nothing kept offline
}

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
});
