/** The reads domain's collection (imports only mongoose, like every domain's schemas). */
export * from './pageRead';
