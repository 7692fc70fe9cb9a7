import { randomBytes } from 'node:crypto';
import { errorMessage } from '../../errors.js';

/**
 * RFC 3161 time-stamp requests and tokens, through pkijs + asn1js (the one place that
 * imports them, lazily): a TimeStampReq over a SHA-256 digest with a nonce and certReq,
 * and the check of a TimeStampResp — status, message imprint, nonce, the TSA's CMS
 * signature, and its certificate chain up to one of the roots trusted (at genTime).
 */

export interface TokenCheck {
  ok: boolean;
  /** The TSA's time, from the signed TSTInfo (null when the token could not be read). */
  genTime: string | null;
  reason?: string;
}

type Pkijs = typeof import('pkijs');
type Asn1 = typeof import('asn1js');

async function libraries(): Promise<{ pkijs: Pkijs; asn1js: Asn1 }> {
  const [pkijs, asn1js] = await Promise.all([import('pkijs'), import('asn1js')]);
  return { pkijs, asn1js };
}

const sha256Oid = '2.16.840.1.101.3.4.2.1';
const tstInfoOid = '1.2.840.113549.1.9.16.1.4';

/** A positive nonce of 8 random bytes (its top bit cleared, so DER keeps it as sent). */
export function newNonce(): Buffer {
  const nonce = randomBytes(8);
  nonce[0] = nonce[0]! & 0x7f || 1;
  return nonce;
}

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The DER of a TimeStampReq for this SHA-256 digest. */
export async function timeStampRequest(digest: Uint8Array, nonce: Uint8Array): Promise<Uint8Array> {
  const { pkijs, asn1js } = await libraries();
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: sha256Oid, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: arrayBuffer(digest) }),
    }),
    certReq: true,
    nonce: new asn1js.Integer({ valueHex: arrayBuffer(nonce) }),
  });
  return new Uint8Array(request.toSchema().toBER());
}

/** DER certificates (the trusted roots) as pkijs objects. */
async function certificates(pkijs: Pkijs, ders: readonly Uint8Array[]) {
  return ders.map((der) => pkijs.Certificate.fromBER(arrayBuffer(der)));
}

function hex(view: Uint8Array): string {
  return Buffer.from(view).toString('hex');
}

/** Integers compare by value: DER may add or drop a leading zero byte. */
function sameInteger(left: Uint8Array, right: Uint8Array): boolean {
  const trim = (value: string) => value.replace(/^(00)+/, '');
  return trim(hex(left)) === trim(hex(right));
}

/**
 * Whether `response` (a TimeStampResp, DER) time-stamps exactly `bytes`, answers `nonce`
 * (when given), and is signed by a TSA whose chain reaches one of `roots` (DER).
 */
export async function checkTimeStamp(
  response: Uint8Array,
  bytes: Uint8Array,
  roots: readonly Uint8Array[],
  nonce: Uint8Array | null = null,
): Promise<TokenCheck> {
  const { pkijs } = await libraries();
  let signed;
  let info;
  try {
    const parsed = pkijs.TimeStampResp.fromBER(arrayBuffer(response));
    if (parsed.status.status !== pkijs.PKIStatus.granted && parsed.status.status !== pkijs.PKIStatus.grantedWithMods)
      return { ok: false, genTime: null, reason: `the TSA refused (status ${parsed.status.status})` };
    if (!parsed.timeStampToken) return { ok: false, genTime: null, reason: 'the reply holds no token' };
    signed = new pkijs.SignedData({ schema: parsed.timeStampToken.content });
    if (signed.encapContentInfo.eContentType !== tstInfoOid || !signed.encapContentInfo.eContent)
      return { ok: false, genTime: null, reason: 'the token is not a time-stamp (no TSTInfo)' };
    info = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent.getValue());
  } catch (error) {
    return { ok: false, genTime: null, reason: `the token cannot be read: ${errorMessage(error)}` };
  }
  const genTime = info.genTime.toISOString();
  const imprint = info.messageImprint;
  const { createHash } = await import('node:crypto');
  if (
    imprint.hashAlgorithm.algorithmId !== sha256Oid ||
    hex(imprint.hashedMessage.valueBlock.valueHexView) !== createHash('sha256').update(bytes).digest('hex')
  )
    return { ok: false, genTime, reason: 'the token stamps other bytes (message imprint mismatch)' };
  if (nonce && (!info.nonce || !sameInteger(info.nonce.valueBlock.valueHexView, nonce)))
    return { ok: false, genTime, reason: 'the token does not answer our nonce (a replayed reply?)' };
  return verifySignature(pkijs, signed, bytes, roots, genTime);
}

async function verifySignature(
  pkijs: Pkijs,
  signed: InstanceType<Pkijs['SignedData']>,
  bytes: Uint8Array,
  roots: readonly Uint8Array[],
  genTime: string,
): Promise<TokenCheck> {
  try {
    const result = await signed.verify({
      signer: 0,
      data: arrayBuffer(bytes),
      trustedCerts: await certificates(pkijs, roots),
      checkChain: true,
      extendedMode: true,
    });
    if (result.signatureVerified && result.signerCertificateVerified) return { ok: true, genTime };
    return { ok: false, genTime, reason: `the TSA's signature does not verify: ${result.message || 'invalid'}` };
  } catch (error) {
    const message = errorMessage(error);
    const untrusted = /certificate path|signer's certificate/i.test(message);
    return {
      ok: false,
      genTime,
      reason: untrusted
        ? `the TSA's certificate does not chain to a trusted root (${message})`
        : `the TSA's signature does not verify (${message})`,
    };
  }
}
