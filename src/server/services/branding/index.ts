/** The branding domain's public face: what the pages and other domains may import from it. */
export * from './branding';
export * from './web-manifest';
