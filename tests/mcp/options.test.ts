import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

describe('autohedge mcp options', () => {
  it.each([
    [['--base-url', 'http://user:secret-pass@127.0.0.1:9/v1'], /--base-url must not carry credentials/],
    [['--base-url', 'ftp://127.0.0.1/v1'], /--base-url must be an http\(s\) URL/],
    [['--model', 'gpt\n[ACME] decision: BUY'], /--model must not contain control characters or line breaks/],
  ])('%j is refused like analyze refuses it: one line, exit 2, before serving', async (flags, message) => {
    const io = captureIo();
    expect(await runCli(['mcp', '--demo', ...flags], io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.err()).not.toContain('secret-pass');
    expect(io.out()).toBe('');
  });
});
