/** The sync domain's public face: what the pages and other domains may import from it. */
export * from './magaya-connection';
export * from './magaya-store';
export * from './mirror-schedule';
export * from './provider-tokens';
export * from './sync';
export * from './tokens';
