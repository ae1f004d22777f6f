/**
 * The WebAuthn options the passkey routes answer, as @simplewebauthn/browser takes them (`optionsJSON`),
 * for the API description and the browser client's types.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import * as z from 'zod/mini';
import { schemaOf } from '../envelope';

const requirement = z.enum(['discouraged', 'preferred', 'required']);
const credentials = z.optional(
  z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      transports: z.optional(z.array(z.string())),
    }),
  ),
);
const hints = z.optional(z.array(z.enum(['hybrid', 'security-key', 'client-device'])));
const extensions = z.optional(z.object({ credProps: z.optional(z.boolean()) }));

export const passkeyCreationOptionsSchema = schemaOf<PublicKeyCredentialCreationOptionsJSON>()(
  z.object({
    rp: z.object({ id: z.optional(z.string()), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    challenge: z.string(),
    pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
    timeout: z.optional(z.number()),
    excludeCredentials: credentials,
    authenticatorSelection: z.optional(
      z.object({
        authenticatorAttachment: z.optional(z.enum(['cross-platform', 'platform'])),
        requireResidentKey: z.optional(z.boolean()),
        residentKey: z.optional(requirement),
        userVerification: z.optional(requirement),
      }),
    ),
    hints,
    attestation: z.optional(z.enum(['direct', 'enterprise', 'indirect', 'none'])),
    attestationFormats: z.optional(
      z.array(
        z.enum(['fido-u2f', 'packed', 'android-safetynet', 'android-key', 'tpm', 'apple', 'none']),
      ),
    ),
    extensions,
  }),
);

export const passkeyRequestOptionsSchema = schemaOf<PublicKeyCredentialRequestOptionsJSON>()(
  z.object({
    challenge: z.string(),
    timeout: z.optional(z.number()),
    rpId: z.optional(z.string()),
    allowCredentials: credentials,
    userVerification: z.optional(requirement),
    hints,
    extensions,
  }),
);

/** Adding a passkey: the options for `navigator.credentials.create`. */
export const passkeyRegistrationStartSchema = z.object({ options: passkeyCreationOptionsSchema });

/** Signing in with a passkey: the options for `navigator.credentials.get`. */
export const passkeySignInStartSchema = z.object({ options: passkeyRequestOptionsSchema });
