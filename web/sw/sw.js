/**
 * Quire's service worker (issue #41 "Offline items"), registered only by a user who makes an item
 * available offline (web/features/offline). The build (vite.config.ts `serviceWorker()`) emits it
 * as /sw.js with SHELL (every file of the build) and VERSION filled in, so a new build installs a
 * new worker and drops the old shell.
 *
 * - The app shell is cached whole at install: an offline visit may open any screen's chunk, and
 *   the hashed files never change under their name (cache first).
 * - Navigations (every address of the SPA is index.html): network first, the cached shell offline.
 * - The API answers an offline item needs (item/info, page/info …) are POSTs, which the Cache API
 *   cannot key: they are kept under a synthetic GET address made of the route, the parameters
 *   that name the thing read, and a digest of the login (another login on this browser never
 *   reads them). Network first; the cached answer only when the network fails.
 * - Images: network first, cached copy offline.
 */
/* global SHELL, VERSION */
const SHELL_CACHE = `quire-shell-${VERSION}`;
const DATA_CACHE = 'quire-offline-data';
const SHELL_KEY = '/__quire_offline__/shell';

/** The API reads kept for offline use, each with the parameters that name what it reads. */
const READS = {
  'item/info': ['item_id'],
  'page/info': ['page_id'],
  'page/getPageID': ['item_id', 'page_custom_id', 'page_id'],
  'catalog/menuChildren': ['item_id', 'cat_id'],
  'page/history': ['page_id'],
  'page/uploadList': ['page_id'],
  'item/detail': ['item_id'],
};
/** Parameters whose presence makes an answer not the plain read (a search through item/info). */
const NOT_PLAIN = ['keyword'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      await cache.addAll(SHELL);
      const index = await fetch('/', { cache: 'no-store' });
      if (index.ok) await cache.put(SHELL_KEY, index);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith('quire-shell-') && name !== SHELL_CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

async function digest(text) {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(bytes).slice(0, 12)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

/** The synthetic address an API read is kept under, or null when it is not kept. */
async function readKey(route, body) {
  const names = READS[route];
  if (!names) return null;
  const params = new URLSearchParams(body);
  if (NOT_PLAIN.some((name) => params.get(name))) return null;
  const named = new URLSearchParams();
  for (const name of names) if (params.get(name)) named.set(name, params.get(name));
  const who = await digest(`${params.get('user_token') ?? ''}\n${params.get('_item_pwd') ?? ''}`);
  return `/__quire_offline__/api/${route}?${named.toString()}&who=${who}`;
}

async function networkFirst(request, key, keep) {
  const cache = await caches.open(DATA_CACHE);
  try {
    const response = await fetch(request);
    if (await keep(response)) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw error;
  }
}

/** Only successful envelopes are kept: an error answer must not replace the last good one. */
async function isSuccess(response) {
  if (!response.ok) return false;
  try {
    const envelope = await response.clone().json();
    return Number(envelope.error_code) === 0;
  } catch {
    return false;
  }
}

async function apiRead(request, route) {
  const key = await readKey(route, await request.clone().text());
  return key ? networkFirst(request, key, isSuccess) : fetch(request);
}

async function navigation(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(SHELL_CACHE);
      await cache.put(SHELL_KEY, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(SHELL_KEY);
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  return fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  const sameOrigin = url.origin === self.location.origin;
  if (request.method === 'POST' && sameOrigin && url.pathname.startsWith('/api/')) {
    const route = url.pathname.slice('/api/'.length);
    if (READS[route]) event.respondWith(apiRead(request, route));
    return;
  }
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate' && sameOrigin) {
    if (/^\/(api|server|socket\.io|collab|healthz)(\/|$)/i.test(url.pathname)) return;
    event.respondWith(navigation(request));
    return;
  }
  if (sameOrigin && url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.destination === 'image')
    event.respondWith(networkFirst(request, request.url, (r) => r.ok || r.type === 'opaque'));
});
