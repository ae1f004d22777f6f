/**
 * Two-factor sign-in's payloads and answers, for the endpoints and the forms alike. A code is the
 * authenticator app's 6 digits (spaces allowed, as apps show them) or one of the recovery codes.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { PASSWORD_MAX, type Role } from './constants';
import type { PublicUser } from './validation';

const says = (message: () => string) => ({ error: () => message() });

export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
/** `xxxxx-xxxxx`: longer input is no code of ours, and is refused before any hashing. */
const CODE_MAX = 40;

/** What a person typed, without spaces and dashes, in lower case: `123 456` → `123456`. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(normalizeCode(code));
}

const codeRequired = says(m.twofactor_code_required);

/** The second step of a sign-in: an authenticator code or a recovery code. */
export const secondFactorSchema = z.object({
  code: z
    .string(codeRequired)
    .check(
      z.trim(),
      z.minLength(1, codeRequired),
      z.maxLength(CODE_MAX, says(m.twofactor_code_format)),
    ),
});
export type SecondFactorPayload = z.output<typeof secondFactorSchema>;

/** Turning it on proves the app works: only its 6-digit code will do. */
export const enableTwoFactorSchema = z.object({
  code: z.string(codeRequired).check(
    z.trim(),
    z.minLength(1, codeRequired),
    z.refine(
      isTotpCode,
      says(() => m.twofactor_code_digits({ digits: TOTP_DIGITS })),
    ),
  ),
});
export type EnableTwoFactorPayload = z.output<typeof enableTwoFactorSchema>;

const passwordRequired = says(m.twofactor_password_required);

/** Turning it off takes the password and a second factor, as a sign-in does. */
export const disableTwoFactorSchema = z.object({
  password: z.string(passwordRequired).check(
    z.minLength(1, passwordRequired),
    z.maxLength(
      PASSWORD_MAX,
      says(() => m.validation_password_max({ max: PASSWORD_MAX })),
    ),
  ),
  code: secondFactorSchema.shape.code,
});
export type DisableTwoFactorPayload = z.output<typeof disableTwoFactorSchema>;

export interface TwoFactorSetup {
  /** For the QR code: `otpauth://totp/<issuer>:<username>?secret=…`. */
  otpauthUri: string;
  /** The same secret in base32, for typing into an app that cannot scan. */
  secret: string;
  /** The QR code of `otpauthUri`, an SVG document. */
  qrSvg: string;
}

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** Fired on `window` by the sign-in form when the password was right and a code must follow. */
export const SECOND_FACTOR_EVENT = 'portal:second-factor';

/** What a right password answers when a second step must follow instead of a session. */
export type SignInStep =
  { twoFactorRequired: true } | { twoFactorSetupRequired: true } | { passkeyRequired: true };

/**
 * The roles that see every customer's receipts: admins and admin-viewers. Their sign-ins are audited,
 * and TWO_FACTOR=required-for-admins demands a second factor of them.
 */
const STAFF_ROLES: ReadonlySet<Role> = new Set<Role>(['admin', 'admin-viewer']);

export function isStaffRole(role: Role): boolean {
  return STAFF_ROLES.has(role);
}

/**
 * A user as User Management lists them; `apiTokens`: their personal API tokens that work;
 * `passkeys`: how many they hold.
 */
export type ManagedUser = PublicUser & {
  twoFactorEnabled: boolean;
  apiTokens: number;
  passkeys: number;
};
