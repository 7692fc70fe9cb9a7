import type { FetchFunction } from '../http.js';
import { relabelSource, type MarketLogger, type MarketSource } from '../source.js';
import * as tiingo from './tiingo/index.js';
import * as yahoo from './yahoo/index.js';

/**
 * The vendors, in the order they are asked: the one list a new vendor joins. Adding a
 * vendor is its folder `sources/<vendor>/` (fetch + parse, its recorded answers in the
 * conformance suite) and a line here; an opt-in one also names its key in
 * `.env.example` (see docs/architecture.md).
 */

export interface SourcesOptions {
  env: NodeJS.ProcessEnv;
  /** Defaults to a late-bound globalThis.fetch, so the recorder and replay see every call. */
  fetch?: FetchFunction;
  logger?: MarketLogger;
  /** 0 under replay: a replay retries what the recording retried, without waiting. */
  retryDelayMs?: number;
}

/** An opt-in vendor: asked only when its key is set. */
interface KeyedVendor {
  keyVariable: string;
  createSource(options: Omit<SourcesOptions, 'env'> & { apiKey: string }): MarketSource;
}

/** The failovers for daily bars, in order, after the primary vendor. */
const keyedVendors: readonly KeyedVendor[] = [tiingo];

function keyOf(env: NodeJS.ProcessEnv, vendor: KeyedVendor): string | undefined {
  return env[vendor.keyVariable]?.trim() || undefined;
}

/** The sources a run asks, in order: the primary vendor, then each opt-in failover whose key is set. */
export function configuredSources(options: SourcesOptions): MarketSource[] {
  const common = { fetch: options.fetch, logger: options.logger, retryDelayMs: options.retryDelayMs };
  const keyed = keyedVendors.flatMap((vendor) => {
    const apiKey = keyOf(options.env, vendor);
    return apiKey ? [vendor.createSource({ ...common, apiKey })] : [];
  });
  return [yahoo.createSource(common), ...keyed];
}

/** The environment variables that hold the sources' keys (named in `.env.example` and `doctor`). */
export const sourceKeyVariables: readonly string[] = keyedVendors.map((vendor) => vendor.keyVariable);

/** The label of the demo's data, in the agents' block and the reports. */
export const demoLabel = 'synthetic demo data';

/**
 * The demo's cassette answers in the primary vendor's protocol, but its data is made up:
 * it is labelled as synthetic, never as that vendor's.
 */
export function demoSources(options: SourcesOptions): MarketSource[] {
  const [primary] = configuredSources({ ...options, env: {} });
  return [relabelSource(primary!, 'demo', demoLabel, 'demo data')];
}

/** Secrets of the configured sources, for the scrubbing of everything written. */
export function sourceSecrets(env: NodeJS.ProcessEnv): string[] {
  return keyedVendors.flatMap((vendor) => keyOf(env, vendor) ?? []);
}
