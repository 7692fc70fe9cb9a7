import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../../atomic-write.js';

/**
 * SEC's answers on disk (`$AUTOHEDGE_HOME/cache/edgar/`), so a universe or a rerun does not
 * ask again. A live run takes an answer up to 24 hours old. A run as of a past close takes
 * any answer fetched after that close, for good: a later vintage holds every filing the
 * earlier one did, and the as-filed rule drops what came after the close.
 */

export const liveTtlMs = 24 * 3_600_000;

const entrySchema = z.object({ url: z.string(), fetchedAt: z.string(), body: z.string() });

export interface CachedAnswer {
  body: string;
  fetchedAt: string;
}

export interface ResponseCache {
  read(url: string, freshness: Freshness): Promise<string | null>;
  write(url: string, body: string): Promise<void>;
}

export interface Freshness {
  /** ISO instant of D's close for a historical run; null for a live one. */
  historicalClose: string | null;
}

export function isFresh(fetchedAt: string, freshness: Freshness, now: number): boolean {
  const fetched = Date.parse(fetchedAt);
  if (!Number.isFinite(fetched)) return false;
  if (freshness.historicalClose !== null && fetched > Date.parse(freshness.historicalClose)) return true;
  return now - fetched < liveTtlMs;
}

export function createResponseCache(dir: string, now: () => Date = () => new Date()): ResponseCache {
  const fileOf = (url: string) => path.join(dir, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.json`);
  return {
    async read(url, freshness) {
      let text: string;
      try {
        text = await readFile(fileOf(url), 'utf8');
      } catch {
        return null;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return null;
      }
      const entry = entrySchema.safeParse(parsed);
      if (!entry.success || entry.data.url !== url) return null;
      return isFresh(entry.data.fetchedAt, freshness, now().getTime()) ? entry.data.body : null;
    },
    async write(url, body) {
      const entry = { url, fetchedAt: now().toISOString(), body };
      await writeFileAtomic(fileOf(url), JSON.stringify(entry), { createParents: true });
    },
  };
}
