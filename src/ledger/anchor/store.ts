import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { errorCode } from '../../errors.js';
import { canonicalJson } from '../record.js';
import type { TrustedRoot } from './roots.js';

/**
 * Anchors on disk, beside the ledger (ledger/anchors/): `<seq>.json` — the exact bytes
 * time-stamped, a small canonical JSON of the head — one `<seq>.<tsa>.tsr` per TSA (the
 * TimeStampResp as the TSA sent it, for `openssl ts -verify -in`), `index.jsonl` (seq,
 * head hash, TSA, genTime: a listing; verify trusts only the files) and `roots/`, the
 * roots the user added with --tsa-cert.
 */

export const anchorFormatVersion = 1;

/** What is time-stamped: the head, the ledger's key, and when it was asked. */
export const anchorBytesSchema = z.strictObject({
  autohedgeAnchor: z.literal(anchorFormatVersion),
  seq: z.number().int().min(0),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  keyId: z.string().nullable(),
  askedAt: z.iso.datetime(),
});

export type AnchorBytes = z.infer<typeof anchorBytesSchema>;

export function anchorBytes(head: Omit<AnchorBytes, 'autohedgeAnchor'>): string {
  return canonicalJson({ autohedgeAnchor: anchorFormatVersion, ...head });
}

/** One token as read back: its bytes and the reply, named by seq and TSA. */
export interface AnchorItem {
  seq: number;
  tsa: string;
  bytes: Uint8Array;
  token: Uint8Array;
}

export interface IndexLine {
  seq: number;
  hash: string;
  tsa: string;
  url: string;
  genTime: string;
}

const tokenName = /^(\d+)\.([A-Za-z0-9.-]+)\.tsr$/;

export function bytesFile(directory: string, seq: number): string {
  return join(directory, `${seq}.json`);
}

export function tokenFile(directory: string, seq: number, tsa: string): string {
  return join(directory, `${seq}.${tsa}.tsr`);
}

/** Every token in the directory, with the bytes it stamps (empty when they are gone). */
export async function readAnchorItems(directory: string): Promise<AnchorItem[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const items: AnchorItem[] = [];
  for (const name of names) {
    const match = tokenName.exec(name);
    if (!match) continue;
    const seq = Number(match[1]);
    const bytes = await readFile(bytesFile(directory, seq)).catch(() => Buffer.alloc(0));
    items.push({ seq, tsa: match[2]!, bytes, token: await readFile(join(directory, name)) });
  }
  return items.sort((left, right) => left.seq - right.seq || left.tsa.localeCompare(right.tsa));
}

export async function saveBytes(directory: string, seq: number, bytes: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  await writeFile(bytesFile(directory, seq), bytes);
}

export async function saveToken(directory: string, line: IndexLine, token: Uint8Array): Promise<void> {
  await writeFile(tokenFile(directory, line.seq, line.tsa), token);
  await appendFile(join(directory, 'index.jsonl'), `${canonicalJson(line)}\n`);
}

export async function saveRoots(directory: string, roots: readonly TrustedRoot[]): Promise<void> {
  if (roots.length === 0) return;
  await mkdir(join(directory, 'roots'), { recursive: true });
  for (const root of roots) await writeFile(join(directory, 'roots', `${root.sha256.toLowerCase()}.pem`), root.pem);
}
