import { readdir, readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { errorCode, errorMessage } from '../../errors.js';
import { LedgerError } from '../errors.js';

/**
 * The TSAs anchored to by default and the roots their tokens must chain to. Two
 * independent free TSAs; their roots are pinned here by SHA-256 fingerprint and taken
 * from the Mozilla store bundled with Node (so no certificate is copied into the repo, and
 * a Node update cannot widen the trust: only these fingerprints count). A root the user
 * adds (`--tsa-cert <pem>`) is trusted too, and kept in anchors/roots/ of the home.
 */

export const defaultTsaUrls = ['http://timestamp.digicert.com', 'http://timestamp.sectigo.com'] as const;

export const pinnedRoots: ReadonlyArray<{ name: string; sha256: string }> = [
  // DigiCert's time-stamping CAs chain to these.
  { name: 'DigiCert Trusted Root G4', sha256: '552F7BDCF1A7AF9E6CE672017F4F12ABF77240C78E761AC203D1D9D20AC89988' },
  { name: 'DigiCert Assured ID Root CA', sha256: '3E9099B5015E8F486C00BCEA9D111EE721FABA355A89BCF1DF69561E3DC6325C' },
  // Sectigo's time-stamping CAs chain to this.
  {
    name: 'USERTrust RSA Certification Authority',
    sha256: 'E793C9B02FD8AA13E21C31228ACCB08119643B749C898964B1746D46C3D4CBD2',
  },
];

export interface TrustedRoot {
  name: string;
  /** SHA-256 of the DER, upper-case hex without colons. */
  sha256: string;
  der: Uint8Array;
  pem: string;
}

function rootOf(pem: string, source: string): TrustedRoot {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch (error) {
    throw new LedgerError(`${source} is not a PEM certificate: ${errorMessage(error)}`, 'invalid');
  }
  const name = /CN=([^\n,]+)/.exec(certificate.subject)?.[1] ?? certificate.subject;
  return { name, sha256: certificate.fingerprint256.replace(/:/g, ''), der: new Uint8Array(certificate.raw), pem };
}

/** The pinned roots found in Node's bundled store. */
export function pinnedTrustedRoots(): TrustedRoot[] {
  const wanted = new Set(pinnedRoots.map((root) => root.sha256));
  return rootCertificates.map((pem) => rootOf(pem, 'a bundled root')).filter((root) => wanted.has(root.sha256));
}

/** Every certificate in a PEM file (a root and, if given, more). */
export async function rootsFromPemFile(file: string): Promise<TrustedRoot[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new LedgerError(`cannot read --tsa-cert ${file}: ${errorMessage(error)}`, 'missing');
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new LedgerError(`${file} holds no PEM certificate`, 'invalid');
  return blocks.map((pem) => rootOf(`${pem}\n`, file));
}

/** The roots a home was told to trust (anchors/roots/*.pem). */
export async function homeRoots(directory: string): Promise<TrustedRoot[]> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith('.pem')).sort();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const roots = await Promise.all(names.map((name) => rootsFromPemFile(join(directory, name))));
  return roots.flat();
}

export function uniqueRoots(roots: readonly TrustedRoot[]): TrustedRoot[] {
  const seen = new Map<string, TrustedRoot>();
  for (const root of roots) if (!seen.has(root.sha256)) seen.set(root.sha256, root);
  return [...seen.values()];
}

/** A TSA's name in file names: its host and port, e.g. timestamp.digicert.com, 127.0.0.1-8318. */
export function tsaName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}${parsed.port ? `-${parsed.port}` : ''}`.replace(/[^A-Za-z0-9.-]/g, '-');
}

/** The roots a home trusts: the pinned ones, those it was given (anchors/roots/), and any given now. */
export async function trustedRoots(
  anchorsDirectory: string,
  extra: readonly TrustedRoot[] = [],
): Promise<TrustedRoot[]> {
  return uniqueRoots([...pinnedTrustedRoots(), ...(await homeRoots(join(anchorsDirectory, 'roots'))), ...extra]);
}
