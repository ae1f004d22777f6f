/** The portal's own client directive (src/islands/hydrate-on-interaction.ts, registered in astro.config.mjs). */
declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate at the first pointer, touch or focus on the island, or after this many milliseconds. */
    'client:interaction'?: number | boolean;
  }
}

export {};
