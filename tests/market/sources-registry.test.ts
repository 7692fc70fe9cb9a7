import { describe, expect, it } from 'vitest';
import { redactingIo, secretsOf } from '../../src/cli/redact.js';
import { createMarketData } from '../../src/market/service.js';
import { configuredSources, demoSources } from '../../src/market/sources/index.js';
import { captureIo } from '../support/cli.js';

/** Which sources a run asks, in order; the opt-in key is scrubbed like the others, and doctor lists each source. */

const key = 'tiingo-secret-key-0123456789abcdef';

describe('the configured sources', () => {
  it('without TIINGO_API_KEY: the primary alone; with it: Tiingo after it, as the failover for daily bars', () => {
    expect(configuredSources({ env: {} }).map((source) => source.vendor)).toEqual(['yahoo']);
    const both = configuredSources({ env: { TIINGO_API_KEY: ` ${key} ` } });
    expect(both.map((source) => source.vendor)).toEqual(['yahoo', 'tiingo']);
    expect(createMarketData({ sources: both }).describeSources!()).toEqual([
      'Yahoo Finance (primary)',
      'Tiingo (failover for daily bars)',
    ]);
  });

  it('the demo asks one source, labelled synthetic demo data, whatever keys are set', () => {
    const [demo, ...rest] = demoSources({ env: { TIINGO_API_KEY: key } });
    expect(rest).toEqual([]);
    expect(demo).toMatchObject({ vendor: 'demo', label: 'synthetic demo data', shortLabel: 'demo data' });
    expect(demo!.quote).toBeTypeOf('function');
  });

  it('the key is scrubbed from everything written', () => {
    expect(secretsOf({ TIINGO_API_KEY: key })).toContain(key);
    const io = captureIo();
    redactingIo(io, secretsOf({ TIINGO_API_KEY: key })).stderr(`GET /prices?token=${key} failed: ${key}\n`);
    expect(io.err()).not.toContain(key);
    expect(io.err()).toContain('REDACTED');
  });
});
