/**
 * PROVIDER=magaya's connection as Token Management shows it (the "Magaya connection" card): the API
 * user, the last session's outcome, and Magaya's error codes said in words, in English and Dutch.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';

/** GET /api/tokens/magaya: the API user (never its password) and how the last session went. */
export interface MagayaConnectionStatus {
  /** The user the portal signs in as; null when none is set. */
  username: string | null;
  /**
   * `environment`: MAGAYA_USERNAME / MAGAYA_PASSWORD, which an admin cannot change here; `admin`:
   * entered on this screen.
   */
  source: 'environment' | 'admin' | null;
  /** Magaya's Invoke URL (PROVIDER_URL), without credentials. */
  endpoint: string;
  lastSessionAt: string | null;
  /** Magaya's or the portal's error code of the last session; null when it succeeded (or none ran). */
  lastSessionError: string | null;
  /** That code in words, in the reader's language. */
  lastSessionErrorText: string | null;
}

/** POST /api/tokens/magaya/test: the session the test started and ended, or why it failed. */
export interface MagayaTestResult {
  ok: boolean;
  error: string | null;
  errorText: string | null;
}

const MAX_USERNAME = 200;
const MAX_PASSWORD = 500;

const usernameRequired = { error: () => m.magaya_username_required() };
const passwordRequired = { error: () => m.magaya_password_required() };

/** PUT /api/tokens/magaya: the API user an admin enters. */
export const magayaCredentialsSchema = z.object({
  username: z.string(usernameRequired).check(
    z.trim(),
    z.minLength(1, usernameRequired),
    z.maxLength(MAX_USERNAME, {
      error: () => m.magaya_field_too_long({ max: String(MAX_USERNAME) }),
    }),
  ),
  password: z.string(passwordRequired).check(
    z.minLength(1, passwordRequired),
    z.maxLength(MAX_PASSWORD, {
      error: () => m.magaya_field_too_long({ max: String(MAX_PASSWORD) }),
    }),
  ),
});
export type MagayaCredentials = z.infer<typeof magayaCredentialsSchema>;

/** A Magaya failure in the admin's words, in the reader's language. */
export function magayaErrorText(code: string, detail: string | null = null): string {
  switch (code) {
    case 'access_denied':
      return m.magaya_error_access_denied();
    case 'license_in_use':
      return m.magaya_error_license_in_use();
    case 'too_many_open_sessions':
      return m.magaya_error_too_many_open_sessions();
    case 'unreachable':
      return m.magaya_error_unreachable();
    case 'not_configured':
      return m.magaya_error_not_configured();
    case 'stopped':
      return m.magaya_error_stopped();
    case 'fault':
    case 'bad_response':
      return m.magaya_error_bad_response({ detail: detail ?? code });
    default:
      return m.magaya_error_code({ code });
  }
}
