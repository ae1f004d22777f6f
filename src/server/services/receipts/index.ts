/** The receipts domain's public face: what the pages and other domains may import from it. */
export * from './mirror-rows';
export * from './mirror-version';
export * from './package-tracker';
export * from './receipt-export';
export * from './receipt-history';
export * from './receipt-order';
export * from './receipt-prealerts';
export * from './receipts';
export * from './response-cache';
export * from './share-links';
export * from './stats';
export * from './sync-state';
