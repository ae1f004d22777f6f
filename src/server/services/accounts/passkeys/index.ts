/**
 * Passkeys (WebAuthn, by @simplewebauthn/server): adding them from Profile Settings, signing in with
 * them without a username, listing, renaming and removing them, and an admin removing all of a user's.
 * The relying party is PUBLIC_URL's host; with an IP address there, passkeys are off.
 */
export { passkeyAvailability } from './availability';
export { purgeExpiredPasskeyChallenges, CHALLENGE_MINUTES } from './challenges';
export {
  countPasskeys,
  listPasskeys,
  removeAllPasskeys,
  removePasskey,
  renamePasskey,
} from './manage';
export { finishPasskeyRegistration, startPasskeyRegistration } from './registration';
export { relyingPartyOf, type RelyingParty } from './relying-party';
export { signInWithPasskey, startPasskeySignIn } from './sign-in';
