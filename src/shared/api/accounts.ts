/**
 * The answers about users and sign-in (src/shared/validation.ts and two-factor.ts name their types),
 * for the API description and its tests.
 */
import * as z from 'zod/mini';
import { schemaOf } from '../envelope';
import { locales } from '../locale';
import type { ManagedUser, SignInStep, TwoFactorSetup, TwoFactorStatus } from '../two-factor';
import { publicUserSchema, type SessionUser } from '../validation';

export const sessionUserSchema = schemaOf<SessionUser>()(
  z.extend(publicUserSchema, { locale: z.nullable(z.enum(locales)) }),
);

/** The profile and a finished sign-in: the user, with the language in effect. */
export const signedInUserSchema = z.object({ user: sessionUserSchema });

/** A created, changed or invited user. */
export const userAnswerSchema = z.object({ user: publicUserSchema });

export const managedUserSchema = schemaOf<ManagedUser>()(
  z.extend(publicUserSchema, {
    twoFactorEnabled: z.boolean(),
    apiTokens: z.number(),
    passkeys: z.number(),
  }),
);

/** A right password when a second step must follow instead of a session. */
export const signInStepSchema = schemaOf<SignInStep>()(
  z.union([
    z.object({ twoFactorRequired: z.literal(true) }),
    z.object({ twoFactorSetupRequired: z.literal(true) }),
    z.object({ passkeyRequired: z.literal(true) }),
  ]),
);

export const twoFactorSetupSchema = schemaOf<TwoFactorSetup>()(
  z.object({ otpauthUri: z.string(), secret: z.string(), qrSvg: z.string() }),
);

export const twoFactorStatusSchema = schemaOf<TwoFactorStatus>()(
  z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number() }),
);

/** The recovery codes, shown once; `user` when turning it on finished a pending sign-in. */
export const twoFactorEnabledSchema = z.object({
  recoveryCodes: z.array(z.string()),
  user: z.optional(sessionUserSchema),
});
