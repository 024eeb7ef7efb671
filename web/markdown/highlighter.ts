/**
 * highlight.js with the languages API and ops documents use. Only the core comes with this chunk;
 * each language is its own small chunk, loaded when a document first has a fence in it (a page
 * with one JSON example downloads the core and JSON, not 28 grammars). An unknown language is
 * left unhighlighted rather than guessed: auto-detection is slow on long pages.
 */
import type { LanguageFn } from 'highlight.js';
import hljs from 'highlight.js/lib/core';
import { registerHighlighter, type Highlighter } from './features';

type Loader = () => Promise<{ default: LanguageFn }>;

const LOADERS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  http: () => import('highlight.js/lib/languages/http'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  nginx: () => import('highlight.js/lib/languages/nginx'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  php: () => import('highlight.js/lib/languages/php'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/**
 * The other names fences use, as the definitions declare them (hljs learns an alias only once its
 * language is registered, and a fence must be resolved before that).
 */
const ALIAS_LISTS: Record<string, string> = {
  bash: 'sh zsh',
  c: 'h',
  cpp: 'cc c++ h++ hpp hh hxx cxx',
  csharp: 'cs c#',
  diff: 'patch',
  dockerfile: 'docker',
  go: 'golang',
  http: 'https',
  ini: 'toml',
  java: 'jsp',
  javascript: 'js jsx mjs cjs',
  json: 'jsonc json5',
  kotlin: 'kt kts ktm ktx',
  markdown: 'md mkdown mkd',
  nginx: 'nginxconf',
  objectivec: 'mm objc obj-c obj-c++ objective-c++',
  plaintext: 'text txt',
  python: 'py gyp ipython',
  ruby: 'rb gemspec podspec thor irb',
  rust: 'rs',
  shell: 'console shellsession',
  typescript: 'ts tsx mts cts',
  xml: 'html xhtml rss atom xjb xsd xsl plist wsf svg',
  yaml: 'yml',
};
const ALIASES = new Map(
  Object.entries(ALIAS_LISTS).flatMap(([grammar, names]) =>
    names.split(' ').map((alias) => [alias, grammar] as const),
  ),
);

/** Languages a grammar highlights inside itself (HTML's scripts and styles, JSX, shell sessions…). */
const EMBEDS: Record<string, string[]> = {
  dockerfile: ['bash'],
  javascript: ['xml', 'css'],
  markdown: ['xml'],
  shell: ['bash'],
  typescript: ['xml', 'css'],
  xml: ['css', 'javascript'],
  yaml: ['ruby'],
};

const loading = new Map<string, Promise<void>>();

function grammarOf(language: string): string | null {
  const name = language.toLowerCase();
  if (name in LOADERS) return name;
  return ALIASES.get(name) ?? null;
}

function loadGrammar(name: string): Promise<void> {
  let done = loading.get(name);
  if (!done) {
    done = LOADERS[name]().then((m) => hljs.registerLanguage(name, m.default));
    loading.set(name, done);
  }
  return done;
}

/** The grammars these need, with what they embed (embeds may be mutual: HTML and JavaScript). */
function closure(grammars: Iterable<string>): Set<string> {
  const all = new Set<string>();
  const add = (g: string) => {
    if (all.has(g)) return;
    all.add(g);
    (EMBEDS[g] ?? []).forEach(add);
  };
  for (const g of grammars) add(g);
  return all;
}

export const highlighter: Highlighter = {
  highlight(code, language) {
    if (!hljs.getLanguage(language)) return '';
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  },
  covers(language) {
    return !!hljs.getLanguage(language) || grammarOf(language) === null;
  },
};

/** Loads the grammars these fence languages need (unknown ones are skipped), then registers. */
export async function installHighlighter(languages: readonly string[]): Promise<void> {
  const named = languages.map(grammarOf).filter((g): g is string => g !== null);
  await Promise.all([...closure(named)].map(loadGrammar));
  registerHighlighter(highlighter);
}
