/**
 * Signing in with a passkey, without a username: options for the browser (no credentials listed, the
 * authenticator offers its discoverable ones), then the browser's assertion, checked by
 * @simplewebauthn/server against the challenge held for that browser and the stored public key. A
 * passkey is a full second factor (something held, unlocked by the device): with TOTP on, or under
 * TWO_FACTOR=required-for-admins, it asks for nothing more. Each assertion is one attempt under the
 * login limiter, as a password is; a refused one is audited. The session is the usual one (completeSignIn).
 */
// Types only: the library is loaded by the first passkey sign-in, not by every start (it is a sixth of
// the server's start-up CPU).
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { m } from '~/paraglide/messages.js';
import type { PasskeyRefusal } from '~/shared/audit';
import type { PasskeySignInPayload } from '~/shared/passkeys';
import { rateLimitMessage } from '~/shared/format';
import type { SessionUser } from '~/shared/validation';
import type { Passkey, User } from '../../../db/models';
import { AppError } from '../../../errors';
import { recordAudit, selfActor, strangerActor } from '../../audit';
import { completeSignIn, countedCheck, type AuthDeps } from '../auth';
import { requireRelyingParty } from './availability';
import { CHALLENGE_MINUTES, holdChallenge, takeChallenge } from './challenges';

/** Sign-in challenges one client address may ask for per login window: every visit to /login asks for one. */
export const SIGN_IN_CHALLENGES_PER_WINDOW = 300;

/**
 * Options for the browser's passkey prompt (or its autofill); the challenge is held for the token
 * answered with them.
 */
export async function startPasskeySignIn(
  deps: AuthDeps,
  clientAddress: string,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; token: string }> {
  const party = requireRelyingParty(deps.config);
  // Each asks for a row: a client cannot fill the table faster than the window empties it.
  if (
    !(await deps.loginLimiter.admitRequest(
      `passkey challenges from ${clientAddress}`,
      SIGN_IN_CHALLENGES_PER_WINDOW,
    ))
  ) {
    const retryAfter = deps.loginLimiter.windowMinutes * 60;
    throw new AppError('RATE_LIMITED', rateLimitMessage(retryAfter), { retryAfter });
  }
  const { generateAuthenticationOptions } = await import('@simplewebauthn/server');
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'preferred',
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  const token = await holdChallenge(deps, 'sign-in', null, {
    challenge: options.challenge,
    userHandle: null,
  });
  return { options, token };
}

type Checked = { account: User } | { refused: PasskeyRefusal };

/**
 * Checks the assertion: its challenge (this browser's, once, in time), its signature by the stored
 * key, and its counter, which must go up unless the authenticator keeps none. The library is given a
 * counter of 0 so that it checks the signature first: a forged assertion is "signature invalid", and
 * only a genuinely signed one whose counter fell is "counter went backwards" (a cloned authenticator).
 */
async function checkAssertion(
  deps: AuthDeps,
  passkey: Passkey,
  account: User,
  challenge: string | null,
  credential: AuthenticationResponseJSON,
): Promise<Checked> {
  if (challenge === null) return { refused: 'challenge expired or used' };
  const party = requireRelyingParty(deps.config);
  const stored = Number(passkey.counter);
  let newCounter: number;
  const { verifyAuthenticationResponse } = await import('@simplewebauthn/server');
  try {
    const result = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: 0,
      },
      requireUserVerification: false,
    });
    if (!result.verified) return { refused: 'signature invalid' };
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    return { refused: 'signature invalid' };
  }
  if ((newCounter > 0 || stored > 0) && newCounter <= stored)
    return { refused: 'counter went backwards' };
  // Conditional on the counter read: of two assertions racing with one counter, one moves it.
  const [moved] = await deps.db.models.Passkey.update(
    { counter: newCounter, lastUsedAt: new Date(deps.clock.now()) },
    { where: { id: passkey.id, counter: stored } },
  );
  if (moved !== 1) return { refused: 'counter went backwards' };
  if (!account.isActive || account.invited) return { refused: 'inactive account' };
  return { account };
}

/**
 * Signs in with the browser's assertion and opens the usual session. `challengeToken` is the browser's
 * cookie; it is spent whatever the outcome. Refusals are 401s without saying which check failed.
 */
export async function signInWithPasskey(
  deps: AuthDeps,
  challengeToken: string | null,
  { credential }: PasskeySignInPayload,
  clientAddress: string,
  previousToken?: string,
): Promise<{ user: SessionUser; token: string }> {
  requireRelyingParty(deps.config);
  const held =
    challengeToken === null ? null : await takeChallenge(deps, challengeToken, 'sign-in', null);
  const passkey = await deps.db.models.Passkey.findOne({ where: { credentialId: credential.id } });
  const account = passkey ? await deps.db.models.User.findByPk(passkey.userId) : null;
  if (!passkey || !account) {
    // No username to count under: the address's failures count it, as a bad reset link's.
    await deps.loginLimiter.checkTokenAttempt(clientAddress, async () => null);
    await recordAudit(deps, strangerActor(clientAddress), {
      action: 'passkey.refused',
      detail: { reason: 'unknown passkey' },
    });
    throw new AppError('AUTHENTICATION_ERROR', m.passkey_sign_in_failed());
  }
  let refusal: PasskeyRefusal | undefined;
  const signedIn = await countedCheck(deps, { username: account.username, clientAddress }, () =>
    deps.loginLimiter.checkLoginAttempt(account.username, clientAddress, async () => {
      const checked = await checkAssertion(
        deps,
        passkey,
        account,
        held?.challenge ?? null,
        credential as unknown as AuthenticationResponseJSON,
      );
      if ('refused' in checked) refusal = checked.refused;
      return 'account' in checked ? checked.account : null;
    }),
  );
  if (!signedIn) {
    await recordAudit(deps, selfActor(account, clientAddress), {
      action: 'passkey.refused',
      detail: { reason: refusal ?? 'signature invalid', name: passkey.name },
    });
    deps.log.warn(
      { component: 'auth', outcome: 'passkey refused', reason: refusal, userId: account.id },
      'Passkey sign-in refused',
    );
    throw new AppError('AUTHENTICATION_ERROR', m.passkey_sign_in_failed());
  }
  return completeSignIn(deps, signedIn, clientAddress, previousToken, 'passkey');
}
