/**
 * The audit trail's vocabulary: what an entry can record, for the server that writes and the screen
 * that filters; the list query's rules, and each action's name in the reader's language.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { formatCount } from './format';
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
  'branding.logo-changed',
  'branding.logo-removed',
  'branding.background-changed',
  'branding.background-removed',
  'branding.opacity-changed',
  'provider-tokens.saved',
  'provider-tokens.refreshed',
  'provider-tokens.cleared',
  'provider.oauth-connected',
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
  'branding.logo-changed': () => m.audit_action_branding_logo_changed(),
  'branding.logo-removed': () => m.audit_action_branding_logo_removed(),
  'branding.background-changed': () => m.audit_action_branding_background_changed(),
  'branding.background-removed': () => m.audit_action_branding_background_removed(),
  'branding.opacity-changed': () => m.audit_action_branding_opacity_changed(),
  'provider-tokens.saved': () => m.audit_action_provider_tokens_saved(),
  'provider-tokens.refreshed': () => m.audit_action_provider_tokens_refreshed(),
  'provider-tokens.cleared': () => m.audit_action_provider_tokens_cleared(),
  'provider.oauth-connected': () => m.audit_action_provider_oauth_connected(),
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
};

const isAuditAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value);

/** An action in the reader's language; one this version does not know (written by a newer one) as it is stored. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? ACTION_LABELS[action]() : action;
}

/** A detail's named values, stored as JSON: text someone chose (a token's name) stays a value of its own. */
export const auditFieldsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type AuditFields = z.infer<typeof auditFieldsSchema>;

/**
 * Text someone chose, quoted with its own quotes, backslashes, control and direction characters escaped,
 * so that it cannot pass for another field or turn the line around.
 */
const quoted = (value: string) =>
  JSON.stringify(value).replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The portal's own words a detail stores, in the reader's language; a word this version does not know as it is. */
const DETAIL_WORDS: Record<string, () => string> = {
  'no such account': () => m.audit_detail_no_such_account(),
  'too many attempts': () => m.audit_detail_too_many_attempts(),
};
const word = (value: string) => DETAIL_WORDS[value]?.() ?? value;

const DETAIL_FIELDS: Record<string, { label: () => string; show: (value: string | number | boolean) => string }> = {
  reason: { label: () => m.audit_detail_reason(), show: (value) => word(String(value)) },
  attemptedUsername: { label: () => m.audit_detail_attempted_username(), show: (value) => quoted(String(value)) },
  prefix: { label: () => m.audit_detail_prefix(), show: (value) => quoted(String(value)) },
  name: { label: () => m.audit_detail_name(), show: (value) => quoted(String(value)) },
  days: { label: () => m.audit_detail_days(), show: (value) => (typeof value === 'number' ? formatCount(value) : quoted(String(value))) },
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
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== null)
    .map(([name, value]) => {
      const field = DETAIL_FIELDS[name];
      // A value a newer version named: its name as stored, its value quoted as text.
      return field ? `${field.label()}: ${field.show(value)}` : `${name}: ${typeof value === 'string' ? quoted(value) : String(value)}`;
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
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
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
        z.maxLength(AUDIT_ACTOR_MAX, { error: () => m.audit_query_actor_too_long({ max: formatCount(AUDIT_ACTOR_MAX) }) }),
        noControlCharacters(() => m.audit_query_actor_control_characters()),
      ),
    ),
  ),
  action: z.pipe(
    queryText,
    z.transform((value: string | undefined, context): AuditAction | undefined => {
      if (value === undefined || isAuditAction(value)) return value;
      context.issues.push({ code: 'custom', input: value, message: m.audit_query_action({ action: value.slice(0, 60) }) });
      return z.NEVER;
    }),
  ),
  from: dayParameter('from'),
  to: dayParameter('to'),
};

/** Days in YYYY-MM-DD compare as text. */
const inOrder = z.refine<{ from?: string | undefined; to?: string | undefined }>((query) => !query.from || !query.to || query.from <= query.to, {
  error: () => m.audit_query_day_order(),
  path: ['to'],
});

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
export function auditQueryString(filters: Partial<AuditFilters> & { page?: number | undefined; limit?: number | undefined }): string {
  const params = new URLSearchParams();
  for (const key of ['actor', 'action', 'from', 'to'] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (filters.limit && filters.limit !== AUDIT_PAGE_SIZE) params.set('limit', String(filters.limit));
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
