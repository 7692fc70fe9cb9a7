/**
 * An unusable AUTOHEDGE_HOME (issue 44 item 19): `runs`, `portfolio`, `analyze`, `evaluate`
 * and `ledger keygen` each say it in the same one line and exit 2, before doing anything.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkHomeUsable } from '../../src/cli/home-check.js';
import { ensureBuilt, runBuilt } from '../smoke/support.js';

beforeAll(ensureBuilt, 180_000);

function fileHome(): string {
  const home = path.join(mkdtempSync(path.join(tmpdir(), 'autohedge-home-file-')), 'home');
  writeFileSync(home, 'not a folder\n');
  return home;
}

function holdings(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'autohedge-holdings-')), 'holdings.csv');
  writeFileSync(file, 'ticker,shares\nACME,100\n');
  return file;
}

const commands = [
  ['runs'],
  ['portfolio', '--demo', '--holdings', holdings()],
  ['analyze', 'ACME', '--demo', '--quiet'],
  ['evaluate', '--demo'],
  ['ledger', 'keygen'],
];

describe('an AUTOHEDGE_HOME that is a regular file', () => {
  it.each(commands)(
    '%s: one line, exit 2',
    async (...args) => {
      const home = fileHome();
      const run = await runBuilt(args, { home });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        `autohedge: AUTOHEDGE_HOME ${home} is not a usable folder: it is a file; set AUTOHEDGE_HOME to a folder you can write (default ~/.autohedge)`,
      ]);
      expect(run.stdout).toBe('');
    },
    60_000,
  );

  it('names the file when it stands above the home', async () => {
    const file = fileHome();
    await expect(checkHomeUsable(path.join(file, 'inner'), false)).rejects.toThrow(`${file} is a file`);
  });

  it('lets a home that does not exist yet be made', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'autohedge-home-new-'));
    await expect(checkHomeUsable(path.join(parent, 'a', 'b'), true)).resolves.toBeUndefined();
  });
});
