import { z } from 'zod';
import { LedgerError } from '../errors.js';
import { defaultTsaUrls } from './roots.js';

/**
 * Anchoring's environment, validated: AUTOHEDGE_TSA_URLS (space- or comma-separated
 * http(s) URLs; replaces the defaults), AUTOHEDGE_ANCHOR=1 (anchor after each append),
 * AUTOHEDGE_ANCHOR_EVERY (at most one anchor per this long per home: `90s`, `10m`, `1h`,
 * or seconds; default 10 minutes).
 */

const tsaUrl = z
  .string()
  .url()
  .refine((value) => /^https?:$/.test(new URL(value).protocol), { error: 'a TSA URL must be http or https' });

export const defaultAnchorEveryMs = 10 * 60_000;

export function tsaUrlsOf(flags: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const listed = env.AUTOHEDGE_TSA_URLS?.split(/[\s,]+/).filter((url) => url.length > 0) ?? [];
  const urls = flags.length > 0 ? flags : listed.length > 0 ? listed : [...defaultTsaUrls];
  const parsed = z.array(tsaUrl).safeParse(urls);
  if (!parsed.success)
    throw new LedgerError(`not a TSA URL: ${urls.find((url) => !tsaUrl.safeParse(url).success)}`, 'invalid');
  return [...new Set(parsed.data)];
}

export function autoAnchorOn(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes|on)$/i.test(env.AUTOHEDGE_ANCHOR?.trim() ?? '');
}

const units: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000 };

export function anchorEveryMs(env: NodeJS.ProcessEnv): number {
  const value = env.AUTOHEDGE_ANCHOR_EVERY?.trim();
  if (!value) return defaultAnchorEveryMs;
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/i.exec(value);
  if (!match)
    throw new LedgerError(`AUTOHEDGE_ANCHOR_EVERY=${value}: give a duration such as 90s, 10m or 1h`, 'invalid');
  return Number(match[1]) * units[(match[2] ?? '').toLowerCase()]!;
}
