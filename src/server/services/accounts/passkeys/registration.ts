/**
 * Adding a passkey from Profile Settings: the password first (a borrowed session cannot plant a way
 * back in), then options for the browser, then the browser's new credential, checked by
 * @simplewebauthn/server against the challenge held for that browser. Credentials are discoverable
 * (resident key required), so that signing in needs no username; user verification is preferred.
 */
import { randomBytes } from 'node:crypto';
// Types only: the library is loaded by the first registration, not by every start (it is a sixth of the
// server's start-up CPU).
import type {
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { UniqueConstraintError } from 'sequelize';
import { m } from '~/paraglide/messages.js';
import {
  passkeyKind,
  passkeyKindName,
  type PasskeyRegistrationPayload,
  type PasskeyView,
} from '~/shared/passkeys';
import type { Config } from '../../../config';
import { AppError } from '../../../errors';
import { recordAudit, selfActor, userTarget } from '../../audit';
import type { LoginLimiter } from '../login-limiter';
import type { PasswordHasher } from '../passwords';
import { requireRelyingParty } from './availability';
import { CHALLENGE_MINUTES, holdChallenge, takeChallenge, type ChallengeDeps } from './challenges';
import { toPasskeyView } from './views';

export interface RegistrationDeps extends ChallengeDeps {
  config: Pick<Config, 'publicUrl' | 'productName'>;
  loginLimiter: LoginLimiter;
  passwords: PasswordHasher;
}

/**
 * Options for the browser to make a new passkey, once the password is right; the challenge is held for
 * the token answered with them. Wrong passwords count against the login limit, as for a password change.
 */
export async function startPasskeyRegistration(
  deps: RegistrationDeps,
  userId: number,
  clientAddress: string,
  password: string,
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; token: string }> {
  const { db, loginLimiter, passwords, config } = deps;
  const party = requireRelyingParty(config);
  const account = await db.models.User.findByPk(userId);
  if (!account) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  const confirmed = await loginLimiter.checkLoginAttempt(
    account.username,
    clientAddress,
    async () =>
      (await passwords.verify(password, account.passwordHash, clientAddress)) ? account : null,
  );
  if (!confirmed) {
    const message = m.passkey_password_incorrect();
    throw new AppError('VALIDATION_ERROR', message, { details: [{ field: 'password', message }] });
  }
  const held = await db.models.Passkey.findAll({
    attributes: ['credentialId', 'transports', 'userHandle'],
    where: { userId },
    order: [['id', 'ASC']],
  });
  // One user handle per user: an authenticator that already holds a passkey of this account
  // replaces it rather than adding a second.
  const userHandle = held[0]?.userHandle ?? randomBytes(32).toString('base64url');
  const { generateRegistrationOptions } = await import('@simplewebauthn/server');
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: account.username,
    userDisplayName: account.fullName || account.username,
    userID: Buffer.from(userHandle, 'base64url'),
    timeout: CHALLENGE_MINUTES * 60_000,
    attestationType: 'none',
    excludeCredentials: held.map((passkey) => ({
      id: passkey.credentialId,
      transports: transportsOf(passkey.transports),
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const token = await holdChallenge(deps, 'registration', userId, {
    challenge: options.challenge,
    userHandle,
  });
  return { options, token };
}

/** As the browser reported them when the passkey was added. */
const transportsOf = (stored: string | null): string[] => (stored ? stored.split(',') : []);

/**
 * Keeps the browser's new passkey, named as the user asked or after the kind of device it is on; the
 * challenge must be this browser's, unused and unexpired, and for this user.
 */
export async function finishPasskeyRegistration(
  deps: RegistrationDeps,
  userId: number,
  clientAddress: string,
  token: string | null,
  payload: PasskeyRegistrationPayload,
): Promise<PasskeyView> {
  const { db, clock, config } = deps;
  const party = requireRelyingParty(config);
  const held = token === null ? null : await takeChallenge(deps, token, 'registration', userId);
  if (held === null) throw new AppError('VALIDATION_ERROR', m.passkey_challenge_expired());
  const { verifyRegistrationResponse } = await import('@simplewebauthn/server');
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await verifyRegistrationResponse({
      response: payload.credential as unknown as RegistrationResponseJSON,
      expectedChallenge: held.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: false,
    });
  } catch {
    throw new AppError('VALIDATION_ERROR', m.passkey_registration_failed());
  }
  if (!verified.verified || !verified.registrationInfo)
    throw new AppError('VALIDATION_ERROR', m.passkey_registration_failed());
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const account = await db.models.User.findByPk(userId);
  if (!account) throw new AppError('AUTHENTICATION_ERROR', m.error_authentication_required());
  const transports = (credential.transports ?? []).map(String);
  const name = payload.name ?? passkeyKindName(passkeyKind(credentialDeviceType, transports));
  try {
    return await db.sequelize.transaction(async (transaction) => {
      const created = await db.models.Passkey.create(
        {
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          userHandle: held.userHandle ?? '',
          transports: transports.length ? transports.join(',').slice(0, 200) : null,
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          name,
          createdAt: new Date(clock.now()),
        },
        { transaction },
      );
      await recordAudit(
        deps,
        selfActor(account, clientAddress),
        {
          action: 'passkey.added',
          target: userTarget(account.username),
          detail: { name, deviceType: credentialDeviceType },
        },
        transaction,
      );
      return toPasskeyView(created);
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError)
      throw new AppError('CONFLICT', m.passkey_already_registered());
    throw error;
  }
}
