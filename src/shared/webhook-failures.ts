/**
 * Why a webhook delivery attempt failed: one of a closed set of codes with its parameters. The log
 * keeps it as JSON in `webhook_deliveries.error`, so that the delivery log, the API and the e-mail
 * telling an owner their endpoint was turned off each say it in their reader's language. Rows written
 * before these codes hold English text, which is shown as it is.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { formatCount } from './format';

/** The networks deliveries may not reach (src/server/network-address.ts tells which an address is on). */
export const ADDRESS_KINDS = [
  'loopback',
  'private',
  'link-local',
  'shared',
  'unspecified',
  'multicast',
  'reserved',
  'metadata',
] as const;
export type AddressKind = (typeof ADDRESS_KINDS)[number];

/** A host name as a URL holds it (at most 253 characters, an IPv6 literal in brackets). */
const HOST_MAX = 255;
const ADDRESS_MAX = 64;
const SCHEME_MAX = 20;
/** A redirect's target is kept only in part: it is the receiver's text, not the portal's. */
const LOCATION_MAX = 200;
const SYSTEM_CODE_MAX = 40;

const text = (max: number) => z.string().check(z.maxLength(max));

export const webhookFailureSchema = z.discriminatedUnion('code', [
  /** No complete answer within the time limit. */
  z.object({ code: z.literal('timeout'), seconds: z.number() }),
  /** The address's scheme is not https:// (nor http:// where WEBHOOK_ALLOW_HTTP allows it). */
  z.object({ code: z.literal('scheme-refused'), scheme: text(SCHEME_MAX) }),
  /** The address holds a user name or password. */
  z.object({ code: z.literal('credentials-refused') }),
  z.object({ code: z.literal('invalid-address') }),
  /** The address is a literal IP address on a network deliveries may not reach. */
  z.object({
    code: z.literal('address-refused'),
    host: text(HOST_MAX),
    kind: z.enum(ADDRESS_KINDS),
  }),
  /** The address's name resolves to an IP address on such a network. */
  z.object({
    code: z.literal('resolved-address-refused'),
    host: text(HOST_MAX),
    address: text(ADDRESS_MAX),
    kind: z.enum(ADDRESS_KINDS),
  }),
  /** A 3xx answer: never followed. `location` is null when the answer named no target. */
  z.object({
    code: z.literal('redirect'),
    status: z.number(),
    location: z.nullable(text(LOCATION_MAX)),
  }),
  /** Any other answer outside 2xx. */
  z.object({ code: z.literal('http-status'), status: z.number() }),
  /**
   * No connection, or it broke: the system's code (ECONNREFUSED, ENOTFOUND, ECONNRESET,
   * DEPTH_ZERO_SELF_SIGNED_CERT …).
   */
  z.object({ code: z.literal('connection-failed'), systemCode: text(SYSTEM_CODE_MAX) }),
]);
export type WebhookFailure = z.infer<typeof webhookFailureSchema>;
export type WebhookFailureCode = WebhookFailure['code'];

/** Failures of the address itself: trying again cannot help. */
const REFUSALS: ReadonlySet<WebhookFailureCode> = new Set([
  'scheme-refused',
  'credentials-refused',
  'invalid-address',
  'address-refused',
  'resolved-address-refused',
]);

export const isAddressRefusal = (failure: WebhookFailure): boolean => REFUSALS.has(failure.code);

/** The failure of a connection's error: its system code when it has one of the usual form, else UNKNOWN. */
export function connectionFailure(error: unknown): WebhookFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const systemCode =
    typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code) && code.length <= SYSTEM_CODE_MAX
      ? code
      : 'UNKNOWN';
  return { code: 'connection-failed', systemCode };
}

/** Each text parameter's maximum: the stored JSON stays within the column's 500 characters. */
const TEXT_MAXIMA: Readonly<Record<string, number>> = {
  scheme: SCHEME_MAX,
  host: HOST_MAX,
  address: ADDRESS_MAX,
  location: LOCATION_MAX,
  systemCode: SYSTEM_CODE_MAX,
};

/** The stored form: JSON, each text cut to its maximum (a redirect's target may be long). */
export function encodeWebhookFailure(failure: WebhookFailure): string {
  const capped = Object.entries(failure).map(([key, value]) => [
    key,
    typeof value === 'string' && key in TEXT_MAXIMA ? value.slice(0, TEXT_MAXIMA[key]) : value,
  ]);
  return JSON.stringify(Object.fromEntries(capped));
}

/** The failure a stored error holds, or null for the free text written before the codes (or anything else). */
export function decodeWebhookFailure(stored: string | null): WebhookFailure | null {
  if (stored === null || !stored.startsWith('{')) return null;
  try {
    const parsed = webhookFailureSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const ADDRESS_KIND_TEXT: Readonly<Record<AddressKind, () => string>> = {
  loopback: () => m.whe_address_loopback(),
  private: () => m.whe_address_private(),
  'link-local': () => m.whe_address_link_local(),
  shared: () => m.whe_address_shared(),
  unspecified: () => m.whe_address_unspecified(),
  multicast: () => m.whe_address_multicast(),
  reserved: () => m.whe_address_reserved(),
  metadata: () => m.whe_address_metadata(),
};

/** The failure in the current language, as the delivery log, the API and the e-mail say it. */
export function webhookFailureText(failure: WebhookFailure): string {
  switch (failure.code) {
    case 'timeout':
      return m.whe_failure_timeout({ seconds: formatCount(failure.seconds) });
    case 'scheme-refused':
      return m.whe_failure_scheme_refused({ scheme: failure.scheme });
    case 'credentials-refused':
      return m.whe_failure_credentials_refused();
    case 'invalid-address':
      return m.whe_failure_invalid_address();
    case 'address-refused':
      return m.whe_failure_address_refused({
        host: failure.host,
        kind: ADDRESS_KIND_TEXT[failure.kind](),
      });
    case 'resolved-address-refused':
      return m.whe_failure_resolved_address_refused({
        host: failure.host,
        address: failure.address,
        kind: ADDRESS_KIND_TEXT[failure.kind](),
      });
    case 'redirect':
      return failure.location === null
        ? m.whe_failure_redirect_nowhere({ status: String(failure.status) })
        : m.whe_failure_redirect({ location: failure.location });
    case 'http-status':
      return m.whe_failure_http_status({ status: String(failure.status) });
    case 'connection-failed':
      return m.whe_failure_connection({ systemCode: failure.systemCode });
  }
}
