import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

/** Where a ceremony runs, as the browser reports it and the authenticator signs it. */
export interface Ceremony {
  origin: string;
  rpId: string;
}

// Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential.
const userPresent = 0x01;
const userVerified = 0x04;
const attestedCredential = 0x40;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const base64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer) {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, attested ?? Buffer.alloc(0)]);
}

/**
 * A software passkey for API tests: an ES256 key pair that answers registration with attestation
 * 'none' and sign-in with real signatures, as a browser's authenticator would (@simplewebauthn
 * has no test helper). Each assertion raises the signature counter unless told otherwise.
 */
export class TestPasskey {
  readonly credentialId = randomBytes(16);
  counter = 0;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(private readonly ceremony: Ceremony) {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
    }));
  }

  get id(): string {
    return base64url(this.credentialId);
  }

  /** The public key as COSE (EC2, ES256, P-256). */
  private cosePublicKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
  }

  register(challenge: string, where: Partial<Ceremony> = {}): RegistrationResponseJSON {
    const { origin, rpId } = { ...this.ceremony, ...where };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID: none, like most passkey providers under attestation 'none'
      idLength,
      this.credentialId,
      Buffer.from(this.cosePublicKey()),
    ]);
    const authData = authenticatorData(
      rpId,
      userPresent | userVerified | attestedCredential,
      this.counter,
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientData('webauthn.create', challenge, origin)),
        attestationObject: base64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A signed answer to a sign-in challenge; `counter` overrides the next counter value. */
  assert(
    challenge: string,
    where: Partial<Ceremony> & { counter?: number } = {},
  ): AuthenticationResponseJSON {
    const { origin, rpId } = { ...this.ceremony, ...where };
    this.counter = where.counter ?? this.counter + 1;
    const authData = authenticatorData(rpId, userPresent | userVerified, this.counter);
    const clientDataJSON = clientData('webauthn.get', challenge, origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: this.privateKey,
      dsaEncoding: 'der',
    });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
