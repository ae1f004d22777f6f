/** The consignees domain's public face: what the pages and other domains may import from it. */
export * from './assignments';
export * from './consignees';
