/** The catalogue parts the build makes (vite.config.ts, catalogueParts). */
declare module 'virtual:catalogue/*' {
  const part: Record<string, unknown>;
  export default part;
}

declare module 'virtual:catalogue-loaders' {
  type Loader = () => Promise<{ default: Record<string, unknown> }>;
  /** Per locale, its reader part and the rest. */
  const loaders: Record<string, { reader: Loader; rest: Loader }>;
  export default loaders;
}
