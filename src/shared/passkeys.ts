/**
 * Passkeys' payloads and answers, for the endpoints and the screens alike. The browser's answers to a
 * ceremony are checked here only for shape and size; @simplewebauthn/server checks what they say.
 */
import * as z from 'zod/mini';
import { m } from '~/paraglide/messages.js';
import { PASSWORD_MAX } from './constants';

const says = (message: () => string) => ({ error: () => message() });

export const PASSKEY_NAME_MAX = 60;
/** Far above any credential's fields (a credential ID is at most 1023 bytes), far below the body limit. */
const ENCODED_MAX = 16_384;

const nameRequired = says(m.passkey_name_required);
const passkeyName = z.string(nameRequired).check(
  z.trim(),
  z.minLength(1, nameRequired),
  z.maxLength(
    PASSKEY_NAME_MAX,
    says(() => m.passkey_name_max({ max: PASSKEY_NAME_MAX })),
  ),
);

export const renamePasskeySchema = z.object({ name: passkeyName });
export type RenamePasskeyPayload = z.output<typeof renamePasskeySchema>;

const passwordRequired = says(m.passkey_password_required);

/** Adding a passkey asks for the password: a borrowed session cannot plant a way back in. */
export const passkeyRegistrationOptionsSchema = z.object({
  password: z.string(passwordRequired).check(
    z.minLength(1, passwordRequired),
    z.maxLength(
      PASSWORD_MAX,
      says(() => m.validation_password_max({ max: PASSWORD_MAX })),
    ),
  ),
});
export type PasskeyRegistrationOptionsPayload = z.output<typeof passkeyRegistrationOptionsSchema>;

const unreadable = says(m.passkey_response_invalid);
const encoded = z
  .string(unreadable)
  .check(z.maxLength(ENCODED_MAX, unreadable), z.regex(/^[\w-]*={0,2}$/, unreadable));

/** What @simplewebauthn/browser's startRegistration answers. */
const registrationCredentialSchema = z.looseObject(
  {
    id: encoded,
    rawId: encoded,
    type: z.literal('public-key', unreadable),
    response: z.looseObject(
      {
        clientDataJSON: encoded,
        attestationObject: encoded,
        transports: z.optional(
          z
            .array(z.string(unreadable).check(z.maxLength(20, unreadable)))
            .check(z.maxLength(10, unreadable)),
        ),
      },
      unreadable,
    ),
    clientExtensionResults: z.looseObject({}, unreadable),
  },
  unreadable,
);

/** What @simplewebauthn/browser's startAuthentication answers. */
const authenticationCredentialSchema = z.looseObject(
  {
    id: encoded,
    rawId: encoded,
    type: z.literal('public-key', unreadable),
    response: z.looseObject(
      {
        clientDataJSON: encoded,
        authenticatorData: encoded,
        signature: encoded,
        userHandle: z.optional(encoded),
      },
      unreadable,
    ),
    clientExtensionResults: z.looseObject({}, unreadable),
  },
  unreadable,
);

/** The new passkey, and its name when the user gave one (else the kind of device it is on). */
export const passkeyRegistrationSchema = z.object({
  credential: registrationCredentialSchema,
  name: z.optional(passkeyName),
});
export type PasskeyRegistrationPayload = z.output<typeof passkeyRegistrationSchema>;

export const passkeySignInSchema = z.object({ credential: authenticationCredentialSchema });
export type PasskeySignInPayload = z.output<typeof passkeySignInSchema>;

/** A passkey as its owner's list shows it. */
export interface PasskeyView {
  id: number;
  name: string;
  /** `singleDevice`, or `multiDevice` for a passkey synced between devices. */
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * Whether this portal offers passkeys: not when PUBLIC_URL's host is an IP address, which cannot be
 * a relying party ID.
 */
export type PasskeyAvailability = { available: true } | { available: false; reason: 'ip-host' };

/** The kind of device a new passkey is on, from what the browser reported: its default name. */
export function passkeyKind(
  deviceType: string,
  transports: readonly string[],
): 'synced' | 'phone' | 'security-key' | 'device' {
  if (transports.includes('hybrid')) return 'phone';
  if (deviceType === 'multiDevice') return 'synced';
  if (
    transports.some(
      (transport) => transport === 'usb' || transport === 'nfc' || transport === 'ble',
    )
  )
    return 'security-key';
  return 'device';
}

export function passkeyKindName(kind: ReturnType<typeof passkeyKind>): string {
  if (kind === 'phone') return m.passkey_kind_phone();
  if (kind === 'synced') return m.passkey_kind_synced();
  if (kind === 'security-key') return m.passkey_kind_security_key();
  return m.passkey_kind_device();
}

/** A passkey in an answer. */
export const passkeyViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  deviceType: z.string(),
  backedUp: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});

/** The list, and whether the portal offers passkeys at all (and why not). */
export const passkeyListSchema = z.object({
  availability: z.union([
    z.object({ available: z.literal(true) }),
    z.object({ available: z.literal(false), reason: z.literal('ip-host') }),
  ]),
  passkeys: z.array(passkeyViewSchema),
});
export type PasskeyList = z.output<typeof passkeyListSchema>;
