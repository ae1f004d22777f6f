/** The audit trail's vocabulary: what an entry can record, for the server that writes and the screen that filters. */
import * as z from 'zod/mini';

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
] as const;

export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;
