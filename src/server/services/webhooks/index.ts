/** The webhooks domain's public face: what the pages and other domains may import from it. */
export * from './webhook-delivery';
export * from './webhooks';
