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
// A reader's data requests start now, beside the download of the reader's code (issue #22).
prefetchFromAddress(window.location.pathname, window.location.search);

void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
});
