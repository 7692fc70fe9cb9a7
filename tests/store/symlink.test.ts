// A result.json that is a symbolic link out of the run store is refused, not followed, and a
// file that is not JSON is never quoted back (its first characters may be anyone's secret).
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { listRuns, loadRun, readSavedRuns } from '../../src/store/index.js';
import { captureIo } from '../support/cli.js';

const secretLine = 'root:$6$saltsalt$secrethashvalue:20200:0:99999:7:::';

function homeWithLinkedRun(): string {
  const home = mkdtempSync(join(tmpdir(), 'autohedge-symlink-'));
  const outside = join(mkdtempSync(join(tmpdir(), 'autohedge-outside-')), 'shadow');
  writeFileSync(outside, `${secretLine}\n`);
  mkdirSync(join(home, 'runs', 'linked-run'), { recursive: true });
  symlinkSync(outside, join(home, 'runs', 'linked-run', 'result.json'));
  mkdirSync(join(home, 'runs', 'not-json'), { recursive: true });
  writeFileSync(join(home, 'runs', 'not-json', 'result.json'), secretLine);
  return home;
}

describe('the run store reads only regular files, and never quotes what it could not parse', () => {
  it('listRuns, loadRun and readSavedRuns refuse the link and name no byte of its target', async () => {
    const home = homeWithLinkedRun();
    const listed = await listRuns(home);
    const linked = listed.find((run) => run.runId === 'linked-run')!;
    expect(linked).toMatchObject({
      state: 'unreadable',
      problem: 'result.json cannot be read: a symbolic link (not followed)',
    });
    const notJson = listed.find((run) => run.runId === 'not-json')!;
    expect(notJson).toMatchObject({
      state: 'corrupt',
      problem: `result.json is not valid JSON (${secretLine.length} characters)`,
    });
    await expect(loadRun(home, 'linked-run')).rejects.toThrow('a symbolic link (not followed)');
    await expect(loadRun(home, 'not-json')).rejects.toThrow('is not valid JSON');
    const all = await readSavedRuns(home);
    expect(JSON.stringify([listed, all])).not.toContain('root:');
  });

  it('through the CLI: runs and runs show say so on stderr without quoting the target', async () => {
    const home = homeWithLinkedRun();
    const io = captureIo();
    const env = { ...io.env, AUTOHEDGE_HOME: home };
    expect(await runCli(['runs'], { ...io, env })).toBe(0);
    const show = captureIo();
    expect(await runCli(['runs', 'show', 'linked-run'], { ...show, env })).not.toBe(0);
    const notJson = captureIo();
    expect(await runCli(['runs', 'show', 'not-json'], { ...notJson, env })).not.toBe(0);
    for (const output of [io.out(), io.err(), show.out(), show.err(), notJson.out(), notJson.err()])
      expect(output).not.toContain('root:');
    expect(io.err()).toContain('linked-run: unreadable: result.json cannot be read: a symbolic link (not followed)');
  });
});
