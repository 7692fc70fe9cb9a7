import { describe, expect, it } from 'vitest';
import { parseRunRequest, runRequestVersion } from '../../src/run/request.js';

const base = { version: runRequestVersion, ticker: 'ACME' };

describe('RunRequest: blind and samples', () => {
  it('defaults to a named run with one decision; carries blind, samples and minAgreement', () => {
    expect(parseRunRequest(base)).toMatchObject({ blind: false, samples: 1 });
    expect(parseRunRequest({ ...base, blind: true, samples: 3, minAgreement: 0.75 })).toMatchObject({
      blind: true,
      samples: 3,
      minAgreement: 0.75,
    });
    expect(parseRunRequest({ ...base, blind: true, search: 'none' }).search).toBe('none');
  });

  it.each([
    [{ blind: true, search: 'exa' }, /--blind turns web search off/],
    [{ blind: true, mcpConfig: 'servers.json' }, /--blind turns MCP tools off/],
    [{ samples: 3, agents: ['quant'] }, /--agent runs no Director/],
    [{ minAgreement: 0.5 }, /--min-agreement needs --samples 2 or more/],
    [{ samples: 0 }, /samples must be at least 1/],
    [{ samples: 2, minAgreement: 2 }, /minAgreement must be at most 1/],
  ])('refuses %j, whichever shell built it', (fields, message) => {
    expect(() => parseRunRequest({ ...base, ...fields })).toThrow(message);
  });
});
