/**
 * A software passkey authenticator for API tests: it makes ES256 credentials and signs assertions as a
 * phone or a security key would (attestation "none", discoverable, user verified), so that the portal's
 * real checks (@simplewebauthn/server) run on real signatures. Its counter can be set, to play a
 * cloned authenticator, and its key swapped, to forge.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

const b64url = (bytes: Uint8Array | Buffer | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

interface RegistrationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface AuthenticationOptions {
  challenge: string;
}

export class TestAuthenticator {
  readonly credentialId = b64url(randomBytes(32));
  private privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter the next assertion carries, then one more. */
  counter = 0;
  userHandle = '';

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
    }));
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): string {
    return b64url(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** What startRegistration answers for these options. */
  register(options: RegistrationOptions): Record<string, unknown> {
    this.userHandle = options.user.id;
    const jwk = this.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const id = Buffer.from(this.credentialId, 'base64url');
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(options.rp.id ?? this.rpId),
      Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA]),
      counterBytes(this.counter),
      Buffer.alloc(16),
      idLength,
      id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** What startAuthentication answers for these options: signed with the counter, which then goes up. */
  assert(options: AuthenticationOptions): Record<string, unknown> {
    this.counter += 1;
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED]),
      counterBytes(this.counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      this.privateKey,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** From now on it signs with another key: its assertions are forgeries. */
  forge(): void {
    this.privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  }
}
