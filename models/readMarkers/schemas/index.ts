/** The reads domain's collection (imports only mongoose and defineModel, like every domain's schemas). */
export * from './pageRead';
