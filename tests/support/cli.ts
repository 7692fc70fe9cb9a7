import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/io.js';

export interface CapturedIo extends CliIo {
  out: () => string;
  err: () => string;
}

/** A CliIo writing into strings, with an empty environment and a private AUTOHEDGE_HOME. */
export function captureIo(overrides: Partial<CliIo> = {}): CapturedIo {
  let out = '';
  let err = '';
  const home = mkdtempSync(join(tmpdir(), 'autohedge-home-'));
  return {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      err += text;
    },
    env: { AUTOHEDGE_HOME: home, NO_COLOR: '1' },
    cwd: mkdtempSync(join(tmpdir(), 'autohedge-cwd-')),
    stderrIsTTY: false,
    stdoutIsTTY: false,
    columns: 0,
    ...overrides,
    out: () => out,
    err: () => err,
  };
}
