import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseOptions } from '../../src/cli/options.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import { checkDecision } from '../../src/guardrails/guardrails.js';
import { secUserAgentFromEnv } from '../../src/market/sources/edgar/config.js';
import { parseMcpConfig } from '../../src/mcp/config.js';
import { parseHoldings } from '../../src/portfolio/holdings.js';
import { formatZodIssues } from '../../src/zod-issues.js';
import { makeDecision } from '../support/results.js';

/** One formatter of zod issues, and the shells that read their users' mistakes through it. */

const book = z.strictObject({
  cash: z.number().min(0, 'must not be negative'),
  positions: z.array(z.strictObject({ symbol: z.string().min(1, 'must not be empty'), quantity: z.number() })),
});
const errorOf = (value: unknown) => book.safeParse(value).error!;
const bad = { cash: -1, positions: [{ symbol: '', quantity: 'ten' }] };

describe('formatZodIssues', () => {
  it('names each field by its path, one line, "; " between', () => {
    expect(formatZodIssues(errorOf(bad))).toBe(
      'cash: must not be negative; positions[0].symbol: must not be empty; positions[0].quantity: Invalid input: expected number, received string',
    );
  });

  it('as the callers ask: a limit, a name for the top level, a sentence, the message alone, what was sent', () => {
    expect(formatZodIssues(errorOf(bad), { limit: 1 })).toBe('cash: must not be negative');
    expect(formatZodIssues(errorOf(null), { root: 'the file' })).toMatch(/^the file: Invalid input: expected object/);
    expect(formatZodIssues(errorOf(bad), { limit: 1, separator: ' ' })).toBe('cash must not be negative');
    expect(formatZodIssues(errorOf(bad), { limit: 1, paths: false })).toBe('must not be negative');
    expect(formatZodIssues(errorOf(bad), { limit: 3, input: bad })).toBe(
      'cash: must not be negative (sent -1); positions[0].symbol: must not be empty (sent ""); positions[0].quantity: Invalid input: expected number, received string (sent "ten")',
    );
    expect(formatZodIssues(errorOf({ positions: [] }), { input: { positions: [] } })).toMatch(
      /^cash: .* \(left out\)$/,
    );
  });

  it('a bad record key gives its reason, not "invalid key"', () => {
    const names = z.record(z.string().regex(/^[a-z]+$/, 'a name is lower-case letters'), z.number());
    expect(formatZodIssues(names.safeParse({ Bad: 1 }).error!)).toBe('Bad: a name is lower-case letters');
  });
});

describe('its callers', () => {
  it('the CLI: the option’s own message, which names its flag', () => {
    const options = z.object({ samples: z.number().int().min(1, '--samples must be at least 1') });
    expect(() => parseOptions(options, { samples: 0 })).toThrow(new UsageError('--samples must be at least 1'));
  });

  it('the MCP config: the file, the field, the reason', () => {
    const problem = (raw: unknown) => {
      try {
        parseMcpConfig(raw, '/home/me/mcp.json', {});
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const allow = { agents: { quant: ['lookup'] } };
    expect(problem({ mcpServers: { 'bad name': { command: 'x', autohedge: allow } } })).toBe(
      '--mcp-config /home/me/mcp.json: mcpServers.bad name: a server name is 1–64 letters, digits, "_", "-" or "."',
    );
    expect(problem({ mcpServers: { desk: { command: 'x', args: [1], autohedge: allow } } })).toBe(
      '--mcp-config /home/me/mcp.json: mcpServers.desk.args[0]: Invalid input: expected string, received number',
    );
    expect(problem({ mcpServers: [] })).toBe(
      '--mcp-config /home/me/mcp.json: mcpServers: expected an object "mcpServers" of servers by name',
    );
  });

  it('the EDGAR User-Agent: the rule it breaks', () => {
    expect(() => secUserAgentFromEnv({ AUTOHEDGE_SEC_USER_AGENT: 'nobody' })).toThrow(
      new ConfigError(
        'AUTOHEDGE_SEC_USER_AGENT must be a name and an e-mail address, e.g. "Jane Doe jane@example.com"',
      ),
    );
  });

  it('the holdings file: its line, the field and the rule as a sentence', () => {
    const json = '{\n  "cash": 100,\n  "positions": [\n    { "symbol": "ACME", "quantity": -3 }\n  ]\n}\n';
    expect(() => parseHoldings(json, 'book.json')).toThrow(
      /^book\.json:4: positions\[0\]\.quantity must not be negative \(short positions/,
    );
    expect(() => parseHoldings('symbol,quantity\nACME,-3\n', 'book.csv')).toThrow(
      /^book\.csv:2: quantity must not be negative/,
    );
  });

  it('the guardrails: one finding per issue, with what the decision sent', () => {
    const findings = checkDecision(makeDecision({ conviction: 140, stopLoss: -1 }), null);
    expect(findings.map((finding) => finding.message)).toEqual([
      'conviction: Too big: expected number to be <=100 (sent 140)',
      'stopLoss: Too small: expected number to be >0 (sent -1)',
    ]);
  });
});
