/**
 * The catalogue's top-level sections a reader's screen uses (the reader, its footer, header and
 * language switch, the share dialog and comments an anonymous visitor may open, the API client's
 * errors). The build splits each catalogue in two (vite.config.ts): these, fetched before the first
 * render, and the rest, fetched for a signed-in user at once and for anyone when a screen needs
 * it (web/i18n/index.ts) — an anonymous reader downloads a fifth of the catalogue.
 */
export const READER_SECTIONS: readonly string[] = [
  'app',
  'common',
  'errors',
  // The server's "busy" answer (api/admission.ts) may reach any visitor.
  'scale',
  'header',
  'footer',
  'language',
  'reader',
  'live',
  'share',
  'comments',
  'notFound',
];

export type CataloguePart = 'reader' | 'rest';
