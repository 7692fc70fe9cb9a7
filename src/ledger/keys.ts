import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/**
 * Ed25519 keys of a ledger, with node:crypto only. A key's id is the first 16 hex digits
 * of SHA-256 over its public key (SPKI DER); a signature is Ed25519 over the record's
 * `hash` (its 64 hex characters as UTF-8), base64.
 */

export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
}

export interface PemPair {
  privatePem: string;
  publicPem: string;
}

export function generatePemPair(): PemPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/** A public key from PEM; throws a TypeError-free Error naming the problem when it is not an Ed25519 key. */
export function parsePublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`not an Ed25519 key (${key.asymmetricKeyType ?? 'unknown'})`);
  return key;
}

export function parseSigningKey(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(`not an Ed25519 key (${privateKey.asymmetricKeyType ?? 'unknown'})`);
  return { keyId: keyIdOf(createPublicKey(privateKey)), privateKey };
}

export function signHash(hash: string, key: SigningKey): string {
  return sign(null, Buffer.from(hash, 'utf8'), key.privateKey).toString('base64');
}

export function signatureValid(hash: string, signature: string, publicKey: KeyObject): boolean {
  try {
    return verify(null, Buffer.from(hash, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
