/**
 * The audit trail's vocabulary: what an entry can record, for the server that writes and the screen
 * that filters; the list query's rules, and each action's name in the reader's language.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { getLocale } from '~/paraglide/runtime.js';
import { ROLES, type Role } from './constants';
import { formatCount, formatDateTime, roleLabel } from './format';
import type { TokenSource } from './tokens';
import { pageEnvelope } from './envelope';
import { noControlCharacters, positiveInteger, queryText } from './receipts';

export const AUDIT_ACTIONS = [
  'sign-in.succeeded',
  'sign-in.failed',
  'user.created',
  'user.updated',
  'user.role-changed',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'user.invited',
  'user.invitation-resent',
  'user.invitation-revoked',
  'user.password-reset',
  'consignee.assigned',
  'consignee.removed',
  'consignee.reassigned',
  'consignees.imported',
  'receipts.imported',
  'branding.logo-changed',
  'branding.logo-removed',
  'branding.background-changed',
  'branding.background-removed',
  'branding.opacity-changed',
  'provider-tokens.saved',
  'provider-tokens.refreshed',
  'provider-tokens.cleared',
  'provider.oauth-connected',
  'provider.magaya-user-saved',
  'sync.started',
  'two-factor.enabled',
  'two-factor.disabled',
  'two-factor.reset',
  'api-token.created',
  'api-token.revoked',
  'api-tokens.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'prealert.matched',
  'prealert.unmatched',
  'sign-in.limited',
  'password.reset-requested',
  'password.reset-by-link',
  'password.changed',
  'user.invitation-accepted',
  'two-factor.setup-started',
  'api-token.used',
  'share-link.created',
  'share-link.revoked',
  'prealert.created',
  'prealert.updated',
  'prealert.deleted',
  'webhook.test-sent',
  'audit.exported',
  'passkey.added',
  'passkey.renamed',
  'passkey.removed',
  'passkeys.removed',
  'passkey.refused',
] as const;

export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

const ACTION_LABELS: Record<AuditAction, () => string> = {
  'sign-in.succeeded': () => m.audit_action_sign_in_succeeded(),
  'sign-in.failed': () => m.audit_action_sign_in_failed(),
  'user.created': () => m.audit_action_user_created(),
  'user.updated': () => m.audit_action_user_updated(),
  'user.role-changed': () => m.audit_action_user_role_changed(),
  'user.disabled': () => m.audit_action_user_disabled(),
  'user.enabled': () => m.audit_action_user_enabled(),
  'user.deleted': () => m.audit_action_user_deleted(),
  'user.invited': () => m.audit_action_user_invited(),
  'user.invitation-resent': () => m.audit_action_user_invitation_resent(),
  'user.invitation-revoked': () => m.audit_action_user_invitation_revoked(),
  'user.password-reset': () => m.audit_action_user_password_reset(),
  'consignee.assigned': () => m.audit_action_consignee_assigned(),
  'consignee.removed': () => m.audit_action_consignee_removed(),
  'consignee.reassigned': () => m.audit_action_consignee_reassigned(),
  'consignees.imported': () => m.audit_action_consignees_imported(),
  'receipts.imported': () => m.audit_action_receipts_imported(),
  'branding.logo-changed': () => m.audit_action_branding_logo_changed(),
  'branding.logo-removed': () => m.audit_action_branding_logo_removed(),
  'branding.background-changed': () => m.audit_action_branding_background_changed(),
  'branding.background-removed': () => m.audit_action_branding_background_removed(),
  'branding.opacity-changed': () => m.audit_action_branding_opacity_changed(),
  'provider-tokens.saved': () => m.audit_action_provider_tokens_saved(),
  'provider-tokens.refreshed': () => m.audit_action_provider_tokens_refreshed(),
  'provider-tokens.cleared': () => m.audit_action_provider_tokens_cleared(),
  'provider.oauth-connected': () => m.audit_action_provider_oauth_connected(),
  'provider.magaya-user-saved': () => m.audit_action_provider_magaya_user_saved(),
  'sync.started': () => m.audit_action_sync_started(),
  'two-factor.enabled': () => m.audit_action_two_factor_enabled(),
  'two-factor.disabled': () => m.audit_action_two_factor_disabled(),
  'two-factor.reset': () => m.audit_action_two_factor_reset(),
  'api-token.created': () => m.apitoken_audit_created(),
  'api-token.revoked': () => m.apitoken_audit_revoked(),
  'api-tokens.revoked': () => m.apitoken_audit_revoked_all(),
  'webhook.created': () => m.webhook_audit_created(),
  'webhook.updated': () => m.webhook_audit_updated(),
  'webhook.deleted': () => m.webhook_audit_deleted(),
  'prealert.matched': () => m.prealert_audit_matched(),
  'prealert.unmatched': () => m.prealert_audit_unmatched(),
  'sign-in.limited': () => m.audit_action_sign_in_limited(),
  'password.reset-requested': () => m.audit_action_password_reset_requested(),
  'password.reset-by-link': () => m.audit_action_password_reset_by_link(),
  'password.changed': () => m.audit_action_password_changed(),
  'user.invitation-accepted': () => m.audit_action_user_invitation_accepted(),
  'two-factor.setup-started': () => m.audit_action_two_factor_setup_started(),
  'api-token.used': () => m.audit_action_api_token_used(),
  'share-link.created': () => m.audit_action_share_link_created(),
  'share-link.revoked': () => m.audit_action_share_link_revoked(),
  'prealert.created': () => m.audit_action_prealert_created(),
  'prealert.updated': () => m.audit_action_prealert_updated(),
  'prealert.deleted': () => m.audit_action_prealert_deleted(),
  'webhook.test-sent': () => m.audit_action_webhook_test_sent(),
  'audit.exported': () => m.audit_action_audit_exported(),
  'passkey.added': () => m.audit_action_passkey_added(),
  'passkey.renamed': () => m.audit_action_passkey_renamed(),
  'passkey.removed': () => m.audit_action_passkey_removed(),
  'passkeys.removed': () => m.audit_action_passkeys_removed(),
  'passkey.refused': () => m.audit_action_passkey_refused(),
};

const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

/** An action in the reader's language; one this version does not know (written by a newer one) as it is stored. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? ACTION_LABELS[action]() : action;
}

/** A detail's named values, stored as JSON: text someone chose (a token's name) stays a value of its own. */
const auditValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const auditFieldsSchema = z.record(
  z.string(),
  z.union([auditValueSchema, z.array(z.union([z.string(), z.number()]))]),
);
export type AuditFields = z.infer<typeof auditFieldsSchema>;

/** Why a sign-in was refused, in the portal's words as stored. */
type SignInRefusal =
  | 'no such account'
  | 'wrong password'
  | 'inactive account'
  | 'wrong two-factor code'
  | 'too many attempts';
/** A stranger's sign-in keeps the name typed, bounded; an account's keeps nothing more. */
type SignInRefused = { reason: SignInRefusal; attemptedUsername?: string };
type Token = { prefix: string; name: string };
type TokensSaved = {
  source: TokenSource;
  accessTokenExpiresAt: string | null;
  refreshToken: boolean;
  refreshTokenExpiresAt: string | null;
};
type ImageChanged = { fileName: string; contentType: string; bytes: number };
type OneConsignee = { consignee: number; consigneeName: string };
type Prealert = { receipt: string; consignee: number; createdBy: string | null };
type Webhook = { origin: string };
type Recovery = { sessionsEnded: boolean; apiTokensRevoked: number };

/** What each action's detail holds: recordAudit takes exactly this, and the reader shows it with labels. */
export interface AuditDetails {
  'sign-in.succeeded': {
    method:
      | 'password'
      | 'password and authenticator code'
      | 'password and recovery code'
      | 'password and two-factor enrolment'
      | 'passkey';
  };
  'sign-in.failed': SignInRefused;
  'sign-in.limited': SignInRefused;
  'user.created': { role: Role };
  'user.updated': { changed: Array<'username' | 'fullName' | 'email'>; previousUsername?: string };
  'user.role-changed': { previousRole: Role; role: Role };
  'user.disabled': null;
  'user.enabled': null;
  'user.deleted': { role: Role };
  'user.invited': { role: Role };
  'user.invitation-resent': { reason: 'after the edit' } | null;
  'user.invitation-revoked': null;
  'user.password-reset': Recovery;
  'consignee.assigned':
    OneConsignee | { consignees: number[]; consigneeCount: number; added: number; skipped: number };
  'consignee.removed': OneConsignee;
  'consignee.reassigned': OneConsignee | { consignees: number[]; consigneeCount: number };
  'consignees.imported': { imported: number; updated: number; deleted: number; skipped: number };
  'receipts.imported': {
    fileName: string;
    imported: number;
    updated: number;
    deleted: number;
    skipped: number;
  };
  'branding.logo-changed': ImageChanged;
  'branding.logo-removed': { fileName: string };
  'branding.background-changed': ImageChanged;
  'branding.background-removed': { fileName: string };
  'branding.opacity-changed': { from: number; to: number };
  'provider-tokens.saved': TokensSaved;
  'provider-tokens.refreshed': { accessTokenExpiresAt: string | null };
  'provider-tokens.cleared': {
    outcome:
      | 'none were stored'
      | 'revoked at the provider'
      | 'no revocation endpoint'
      | 'revocation failed';
  };
  'provider.oauth-connected': TokensSaved;
  /** The Magaya API user an admin entered (its name; never the password). */
  'provider.magaya-user-saved': { name: string };
  'sync.started': null;
  'two-factor.enabled': null;
  'two-factor.disabled': null;
  'two-factor.reset': { wasOn: boolean };
  'api-token.created': Token & { days: number };
  'api-token.revoked': Token;
  'api-tokens.revoked': { count: number; reason: 'account disabled' | 'by an admin' };
  'webhook.created': Webhook;
  'webhook.updated': Webhook;
  'webhook.deleted': Webhook;
  'prealert.matched': Prealert;
  'prealert.unmatched': Prealert;
  'password.reset-requested': { outcome: 'link sent' | 'asked for too often' };
  'password.reset-by-link': Recovery;
  'password.changed': Recovery;
  'user.invitation-accepted': null;
  'two-factor.setup-started': null;
  'api-token.used': Token;
  'share-link.created': null;
  'share-link.revoked': null;
  'prealert.created': null;
  'prealert.updated': null;
  'prealert.deleted': null;
  'webhook.test-sent': Webhook;
  'audit.exported': { actor?: string; action?: AuditAction; from?: string; to?: string };
  'passkey.added': { name: string; deviceType: string };
  'passkey.renamed': { from: string; to: string };
  'passkey.removed': { name: string };
  'passkeys.removed': { count: number };
  'passkey.refused': { reason: PasskeyRefusal; name?: string };
}

/** Why a passkey's assertion was refused, in the portal's words as stored. */
export type PasskeyRefusal =
  | 'unknown passkey'
  | 'challenge expired or used'
  | 'signature invalid'
  | 'counter went backwards'
  | 'inactive account';

/**
 * Text someone chose, quoted with its own quotes, backslashes, control and direction characters escaped,
 * so that it cannot pass for another field or turn the line around.
 */
const quoted = (value: string) =>
  JSON.stringify(value).replace(
    /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** The portal's own words a detail stores, in the reader's language; a word this version does not know as it is. */
const DETAIL_WORDS: Record<string, () => string> = {
  'no such account': () => m.audit_detail_no_such_account(),
  'too many attempts': () => m.audit_detail_too_many_attempts(),
  'wrong password': () => m.audit_detail_wrong_password(),
  'inactive account': () => m.audit_detail_inactive_account(),
  'wrong two-factor code': () => m.audit_detail_wrong_two_factor_code(),
  'after the edit': () => m.audit_detail_after_the_edit(),
  'account disabled': () => m.audit_detail_account_disabled(),
  'by an admin': () => m.audit_detail_by_an_admin(),
  'none were stored': () => m.audit_detail_none_were_stored(),
  'revoked at the provider': () => m.audit_detail_revoked_at_the_provider(),
  'no revocation endpoint': () => m.audit_detail_no_revocation_endpoint(),
  'revocation failed': () => m.audit_detail_revocation_failed(),
  'link sent': () => m.audit_detail_link_sent(),
  'asked for too often': () => m.audit_detail_asked_for_too_often(),
  password: () => m.audit_detail_method_password(),
  'password and authenticator code': () => m.audit_detail_method_authenticator_code(),
  'password and recovery code': () => m.audit_detail_method_recovery_code(),
  'password and two-factor enrolment': () => m.audit_detail_method_enrolment(),
  passkey: () => m.audit_detail_method_passkey(),
  'unknown passkey': () => m.audit_detail_unknown_passkey(),
  'challenge expired or used': () => m.audit_detail_challenge_expired_or_used(),
  'signature invalid': () => m.audit_detail_signature_invalid(),
  'counter went backwards': () => m.audit_detail_counter_went_backwards(),
  singleDevice: () => m.audit_detail_single_device(),
  multiDevice: () => m.audit_detail_multi_device(),
  oauth2: () => m.audit_detail_source_oauth2(),
  manual: () => m.audit_detail_source_manual(),
  sandbox: () => m.audit_detail_source_sandbox(),
  username: () => m.audit_detail_username(),
  fullName: () => m.audit_detail_full_name(),
  email: () => m.audit_detail_email(),
};

type AuditValue = z.infer<typeof auditValueSchema> | Array<string | number>;
const text = (value: AuditValue) => (typeof value === 'string' ? quoted(value) : String(value));
const word = (value: AuditValue) =>
  typeof value === 'string' ? (DETAIL_WORDS[value]?.() ?? quoted(value)) : String(value);
const words = (value: AuditValue) =>
  Array.isArray(value)
    ? value.length
      ? value.map((item) => word(item)).join(', ')
      : m.audit_detail_nothing()
    : word(value);
const count = (value: AuditValue) => (typeof value === 'number' ? formatCount(value) : text(value));
const decimal = (value: AuditValue) =>
  typeof value === 'number' ? value.toLocaleString(getLocale()) : text(value);
const yesNo = (value: AuditValue) =>
  value === true ? m.audit_detail_yes() : value === false ? m.audit_detail_no() : text(value);
const role = (value: AuditValue) =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value)
    ? roleLabel(value as Role)
    : text(value);
const moment = (value: AuditValue) =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value))
    ? formatDateTime(value)
    : text(value);
/** The portal's own values (ids, a checked type) as they are. */
const plain = (value: AuditValue) => (Array.isArray(value) ? value.join(', ') : String(value));
const action = (value: AuditValue) =>
  typeof value === 'string' && isAuditAction(value) ? auditActionLabel(value) : text(value);

/** Each named value's label in the reader's language, and how its value reads. */
const DETAIL_FIELDS: Record<string, { label: () => string; show: (value: AuditValue) => string }> =
  {
    reason: { label: () => m.audit_detail_reason(), show: word },
    attemptedUsername: { label: () => m.audit_detail_attempted_username(), show: text },
    method: { label: () => m.audit_detail_method(), show: word },
    role: { label: () => m.audit_detail_role(), show: role },
    previousRole: { label: () => m.audit_detail_previous_role(), show: role },
    changed: { label: () => m.audit_detail_changed(), show: words },
    previousUsername: { label: () => m.audit_detail_previous_username(), show: text },
    sessionsEnded: { label: () => m.audit_detail_sessions_ended(), show: yesNo },
    apiTokensRevoked: { label: () => m.audit_detail_api_tokens_revoked(), show: count },
    consignee: { label: () => m.audit_detail_consignee(), show: plain },
    consigneeName: { label: () => m.audit_detail_consignee_name(), show: text },
    consignees: { label: () => m.audit_detail_consignees(), show: plain },
    consigneeCount: { label: () => m.audit_detail_consignee_count(), show: count },
    added: { label: () => m.audit_detail_added(), show: count },
    skipped: { label: () => m.audit_detail_skipped(), show: count },
    imported: { label: () => m.audit_detail_imported(), show: count },
    updated: { label: () => m.audit_detail_updated(), show: count },
    deleted: { label: () => m.audit_detail_deleted(), show: count },
    fileName: { label: () => m.audit_detail_file_name(), show: text },
    contentType: { label: () => m.audit_detail_content_type(), show: plain },
    bytes: { label: () => m.audit_detail_bytes(), show: count },
    from: { label: () => m.audit_detail_from(), show: decimal },
    to: { label: () => m.audit_detail_to(), show: decimal },
    source: { label: () => m.audit_detail_source(), show: word },
    accessTokenExpiresAt: { label: () => m.audit_detail_access_token_expires(), show: moment },
    refreshToken: { label: () => m.audit_detail_refresh_token(), show: yesNo },
    refreshTokenExpiresAt: { label: () => m.audit_detail_refresh_token_expires(), show: moment },
    outcome: { label: () => m.audit_detail_outcome(), show: word },
    wasOn: { label: () => m.audit_detail_was_on(), show: yesNo },
    prefix: { label: () => m.audit_detail_prefix(), show: text },
    name: { label: () => m.audit_detail_name(), show: text },
    days: { label: () => m.audit_detail_days(), show: count },
    count: { label: () => m.audit_detail_count(), show: count },
    receipt: { label: () => m.audit_detail_receipt(), show: text },
    createdBy: { label: () => m.audit_detail_created_by(), show: text },
    origin: { label: () => m.audit_detail_origin(), show: text },
    actor: { label: () => m.audit_detail_actor(), show: text },
    action: { label: () => m.audit_detail_action(), show: action },
    deviceType: { label: () => m.audit_detail_device_type(), show: word },
  };

/** A stored detail's named values, or null for a detail in words (as older versions wrote them all). */
function storedFields(detail: string): AuditFields | null {
  if (!detail.startsWith('{')) return null;
  try {
    const parsed = auditFieldsSchema.safeParse(JSON.parse(detail));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A stored detail as a reader sees it, in their language: each named value with its label, text someone
 * chose in quotes; a detail in words as it was written.
 */
export function auditDetailText(detail: string | null): string | null {
  if (detail === null) return null;
  const fields = storedFields(detail);
  if (!fields) return detail;
  return Object.entries(fields)
    .map(([name, value]) => {
      if (value === null)
        return `${DETAIL_FIELDS[name]?.label() ?? name}: ${m.audit_detail_unknown()}`;
      const field = DETAIL_FIELDS[name];
      // A value a newer version named: its name as stored, its value as text.
      return field ? `${field.label()}: ${field.show(value)}` : `${name}: ${text(value)}`;
    })
    .join('; ');
}

export const AUDIT_PAGE_SIZE = 25;
export const AUDIT_MAX_LIMIT = 100;
/** As long as the stored actor name. */
export const AUDIT_ACTOR_MAX = 128;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day as YYYY-MM-DD: the form a date input sends, and one a person types into a URL. */
function isCalendarDay(value: string): boolean {
  const parts = DAY.exec(value);
  if (!parts) return false;
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function dayParameter(name: 'from' | 'to') {
  return z.pipe(
    queryText,
    z.transform((value: string | undefined, context) => {
      if (value === undefined || isCalendarDay(value)) return value;
      context.issues.push({ code: 'custom', input: value, message: m.audit_query_day({ name }) });
      return z.NEVER;
    }),
  );
}

const auditFilterShape = {
  actor: z.pipe(
    queryText,
    z.optional(
      z.string().check(
        z.maxLength(AUDIT_ACTOR_MAX, {
          error: () => m.audit_query_actor_too_long({ max: formatCount(AUDIT_ACTOR_MAX) }),
        }),
        noControlCharacters(() => m.audit_query_actor_control_characters()),
      ),
    ),
  ),
  action: z.pipe(
    queryText,
    z.transform((value: string | undefined, context): AuditAction | undefined => {
      if (value === undefined || isAuditAction(value)) return value;
      context.issues.push({
        code: 'custom',
        input: value,
        message: m.audit_query_action({ action: value.slice(0, 60) }),
      });
      return z.NEVER;
    }),
  ),
  from: dayParameter('from'),
  to: dayParameter('to'),
};

/** Days in YYYY-MM-DD compare as text. */
const inOrder = z.refine<{ from?: string | undefined; to?: string | undefined }>(
  (query) => !query.from || !query.to || query.from <= query.to,
  {
    error: () => m.audit_query_day_order(),
    path: ['to'],
  },
);

/** `GET /api/audit`: the filters (`from` and `to` are whole days in UTC, both included) and the page. */
export const auditQuerySchema = z
  .object({
    page: positiveInteger('page', 1, 1_000_000),
    limit: positiveInteger('limit', AUDIT_PAGE_SIZE, AUDIT_MAX_LIMIT),
    ...auditFilterShape,
  })
  .check(inOrder);
export type AuditQuery = z.output<typeof auditQuerySchema>;

/** `GET /api/audit/export`: the same filters; every matching entry. */
export const auditExportQuerySchema = z.object(auditFilterShape).check(inOrder);
export type AuditFilters = z.output<typeof auditExportQuerySchema>;

/** The filters (and a page) as a query string for the screen's links, without the defaults. */
export function auditQueryString(
  filters: Partial<AuditFilters> & { page?: number | undefined; limit?: number | undefined },
): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'action', 'from', 'to'] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (filters.limit && filters.limit !== AUDIT_PAGE_SIZE)
    params.set('limit', String(filters.limit));
  if (filters.page && filters.page > 1) params.set('page', String(filters.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One entry as the API answers it; `at` in ISO 8601. */
export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actorId: z.nullable(z.number()),
  actorName: z.string(),
  /** One of the actions this version knows, or one a newer version wrote. */
  action: z.string(),
  target: z.nullable(z.string()),
  clientAddress: z.nullable(z.string()),
  /** In the reader's language: each named value with its label, text someone chose in quotes. */
  detail: z.nullable(z.string()),
});
export type AuditEntryDto = z.infer<typeof auditEntrySchema>;

/** The list answer: `{ success: true, data, pagination }`, newest first. */
export const auditListSchema = pageEnvelope(auditEntrySchema);
export type AuditList = Omit<z.infer<typeof auditListSchema>, 'success'>;
