import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TrustedRoot } from './roots.js';
import { bytesFile, tokenFile, type AnchorItem } from './store.js';

/**
 * Beside an export, the anchors as plain files for a stranger with openssl alone:
 * `<seq>.json` (the bytes stamped), `<seq>.<tsa>.tsr` (the TSA's reply) and `roots.pem`
 * (the roots the exporter trusted — the stranger decides whether to trust them).
 */
export async function writeAnchorFiles(
  directory: string,
  items: readonly AnchorItem[],
  roots: readonly TrustedRoot[],
): Promise<string> {
  await mkdir(directory, { recursive: true });
  for (const item of items) {
    await writeFile(bytesFile(directory, item.seq), item.bytes);
    await writeFile(tokenFile(directory, item.seq, item.tsa), item.token);
  }
  await writeFile(join(directory, 'roots.pem'), rootsPem(roots));
  return directory;
}

/** The roots as one PEM file, the `-CAfile` of `openssl ts -verify`. */
export function rootsPem(roots: readonly TrustedRoot[]): string {
  return roots.map((root) => root.pem.trim()).join('\n') + '\n';
}
