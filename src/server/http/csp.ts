/**
 * The page CSP is fixed at build time (astro.config.mjs), but the map's tile server comes from
 * MAP_TILE_URL and the branding style from the admin's settings at run time: these pure steps let
 * the middleware allow them.
 */
import { createHash } from 'node:crypto';

/**
 * The CSP source (scheme and host) of a Leaflet tile URL template, or null when there is none to add:
 * a relative template is served by 'self'. A templated host label such as `{s}` becomes a `*.` wildcard.
 */
export function tileImageSource(template: string): string | null {
  const match = /^(https?:)\/\/([\w.{}:-]+)(?:[/?#]|$)/i.exec(template.trim());
  if (!match) return null;
  const [, scheme = '', host = ''] = match;
  const labels = host.split('.');
  const lastTemplated = labels.findLastIndex((label) => /[{}]/.test(label));
  const fixedLabels = labels.slice(lastTemplated + 1);
  // `*.org` would let any site in: a wildcard needs at least a registrable-looking name behind it.
  if (lastTemplated !== -1 && fixedLabels.length < 2) return null;
  const sourceHost = lastTemplated === -1 ? host : `*.${fixedLabels.join('.')}`;
  try {
    const url = new URL(`${scheme}//${sourceHost}`);
    return `${url.protocol}//${url.host}`;
  } catch {
    return null;
  }
}

/** The policy with `source` added to its img-src directive; a policy without img-src is left as it is. */
export function withImageSource(policy: string, source: string | null): string {
  return withDirectiveSource(policy, 'img-src', source);
}

/** The policy with `source` (such as a style hash) added to its style-src directive, if it has one. */
export function withStyleSource(policy: string, source: string | null): string {
  return withDirectiveSource(policy, 'style-src', source);
}

/** The policy with `source` (such as a script hash) added to its script-src directive, if it has one. */
export function withScriptSource(policy: string, source: string | null): string {
  return withDirectiveSource(policy, 'script-src', source);
}

/** The hash of an inline script or style as Astro's `csp.insertScriptHash` takes it: `sha256-…`. */
export function inlineHash(content: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(content).digest('base64')}`;
}

function withDirectiveSource(policy: string, directiveName: string, source: string | null): string {
  if (!source) return policy;
  return policy
    .split(';')
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name?.toLowerCase() !== directiveName || sources.includes(source)) return directive;
      return `${directive.trimEnd()} ${source}`;
    })
    .join(';');
}
