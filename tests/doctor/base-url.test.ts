import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

describe('doctor and analyze agree on a base URL', () => {
  it('credentials in --base-url are a configuration failure (exit 2) in doctor, as in analyze, and never printed', async () => {
    const io = captureIo();
    io.env.OPENAI_API_KEY = 'sk-doctor-test-key-000000';
    const code = await runCli(['doctor', '--base-url', 'http://user:hunter2-secret@127.0.0.1:9/v1'], io);
    expect(code).toBe(2);
    expect(io.out()).toMatch(/FAIL\s+base URL\s+--base-url must not carry credentials/);
    expect(io.out() + io.err()).not.toContain('hunter2-secret');
    const analyze = captureIo();
    analyze.env.OPENAI_API_KEY = 'sk-doctor-test-key-000000';
    expect(await runCli(['analyze', 'ACME', '--base-url', 'http://user:hunter2-secret@127.0.0.1:9/v1'], analyze)).toBe(
      2,
    );
  });
});
