/** swagger2openapi ships no types; the one call used here. */
declare module 'swagger2openapi' {
  interface ConvertOptions {
    patch?: boolean;
    warnOnly?: boolean;
    resolve?: boolean;
  }
  const converter: {
    convertObj(swagger: object, options: ConvertOptions): Promise<{ openapi: object }>;
  };
  export default converter;
}
