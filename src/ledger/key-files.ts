import { readFile, writeFile, rm } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { errorCode, errorMessage } from '../errors.js';
import { LedgerError } from './errors.js';
import { generatePemPair, keyIdOf, parsePublicKey, parseSigningKey, type SigningKey } from './keys.js';
import type { LedgerPaths } from './paths.js';
import type { VerifyKey } from './verify.js';

/** The key files of a home: read when present, written once (never over an existing key). */

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw new LedgerError(`cannot read ${path}: ${errorMessage(error)}`, 'io', { cause: error });
  }
}

/** The home's signing key, or null when it has none. A key file that is not an Ed25519 key is an error, not "unsigned". */
export async function loadSigningKey(paths: LedgerPaths): Promise<SigningKey | null> {
  const pem = await readOptional(paths.privateKey);
  if (pem === null) return null;
  try {
    return parseSigningKey(pem);
  } catch (error) {
    throw new LedgerError(`${paths.privateKey} is not an Ed25519 private key: ${errorMessage(error)}`, 'invalid');
  }
}

export function verifyKeyFromPem(pem: string, source: string): VerifyKey {
  try {
    const key = parsePublicKey(pem);
    return { key, keyId: keyIdOf(key) };
  } catch (error) {
    throw new LedgerError(`${source} is not an Ed25519 public key: ${errorMessage(error)}`, 'invalid');
  }
}

export async function loadPublicKey(path: string, required: boolean): Promise<VerifyKey | null> {
  const pem = await readOptional(path);
  if (pem === null) {
    if (required) throw new LedgerError(`no public key at ${path}`, 'missing');
    return null;
  }
  return verifyKeyFromPem(pem, path);
}

/** A new Ed25519 pair: private key mode 0600, public key 0644; refuses when either file exists. */
export async function writeKeyPair(paths: LedgerPaths): Promise<{ keyId: string }> {
  await mkdir(paths.directory, { recursive: true });
  const pair = generatePemPair();
  try {
    await writeFile(paths.privateKey, pair.privatePem, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (errorCode(error) === 'EEXIST')
      throw new LedgerError(`a signing key already exists at ${paths.privateKey}; it is not overwritten`, 'exists');
    throw new LedgerError(`cannot write ${paths.privateKey}: ${errorMessage(error)}`, 'io', { cause: error });
  }
  try {
    await writeFile(paths.publicKey, pair.publicPem, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    // Half a pair is no pair: take the private key back so the next keygen can run.
    await rm(paths.privateKey, { force: true });
    if (errorCode(error) === 'EEXIST')
      throw new LedgerError(`a public key already exists at ${paths.publicKey}; it is not overwritten`, 'exists');
    throw new LedgerError(`cannot write ${paths.publicKey}: ${errorMessage(error)}`, 'io', { cause: error });
  }
  return { keyId: keyIdOf(parsePublicKey(pair.publicPem)) };
}
