/**
 * The view's ledger page shows the anchors as `ledger verify` judges them: a record is
 * anchored only by a valid RFC 3161 token covering it (a local TSA made with `openssl ts`);
 * a failed attempt's leftover or a file dropped in the folder anchors nothing.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { appendRunToLedger } from '../../src/ledger/entry.js';
import { ledgerPaths } from '../../src/ledger/paths.js';
import { HomeFiles } from '../../src/view/home-files.js';
import { ledgerPage, readLedgerState } from '../../src/view/ledger-page.js';
import { captureIo } from '../support/cli.js';
import { makeResult } from '../support/results.js';
import { makeTestCa, opensslTs, startLocalTsa, type LocalTsa, type TestCa } from '../ledger/support/local-tsa.js';

if (!opensslTs.ok) console.warn(`skipping the view's anchor tests: ${opensslTs.why}`);

async function append(home: string, env: NodeJS.ProcessEnv, index: number) {
  const result = makeResult({ runId: `20261127T210000Z-ACME-view${index}` });
  await appendRunToLedger({ home, result, resultJson: `${JSON.stringify(result)}\n`, env });
}

describe.skipIf(!opensslTs.ok)('the ledger page and RFC 3161 anchors', () => {
  let ca: TestCa;
  let tsa: LocalTsa;
  beforeAll(async () => {
    ca = await makeTestCa('View');
    tsa = await startLocalTsa(ca);
  }, 60_000);
  afterAll(async () => {
    await tsa.close();
  });

  it('counts only valid tokens: later records are not yet anchored, a dropped file or a leftover anchors nothing', async () => {
    const io = captureIo();
    const home = io.env.AUTOHEDGE_HOME!;
    for (const index of [0, 1]) await append(home, io.env, index);
    expect(await runCli(['ledger', 'anchor', '--tsa', tsa.url, '--tsa-cert', ca.root], io), io.err()).toBe(0);
    await append(home, io.env, 2);
    const anchors = ledgerPaths(home).anchors;
    // What the old page counted as anchoring everything: a JSON naming seq 99, and a failed attempt's bytes file.
    writeFileSync(path.join(anchors, '99.json'), JSON.stringify({ seq: 99, time: '2030-01-01T00:00:00Z' }));
    copyFileSync(path.join(anchors, '1.json'), path.join(anchors, '2.json'));

    const state = await readLedgerState(new HomeFiles(home), false);
    const tsaName = `${new URL(tsa.url).hostname}-${new URL(tsa.url).port}`;
    expect(state.anchors).toEqual([
      expect.objectContaining({ seq: 1, tsa: tsaName, ok: true, files: ['1.json', `1.${tsaName}.tsr`] }),
    ]);
    expect(state.lastAnchoredSeq).toBe(1);
    const html = ledgerPage(state, { demo: false, live: true }, true);
    expect(html).toContain('1 valid of 1; last anchored seq 1');
    expect(html).toMatch(/not yet anchored<\/dt><dd><code>1<\/code>/);
    expect(html).toContain(state.anchors[0]!.genTime!);
    expect(html).not.toContain('99.json');

    // The bundle: the anchor's files and roots.pem, no leftover; a stranger verifies with openssl alone.
    const bundle = path.join(mkdtempSync(path.join(tmpdir(), 'autohedge-bundle-')), 'site');
    const viewIo = captureIo({ env: io.env });
    expect(await runCli(['view', '--bundle', bundle], viewIo), viewIo.err()).toBe(0);
    const published = path.join(bundle, 'ledger', 'anchors');
    expect(readdirSync(published).sort()).toEqual([`1.${tsaName}.tsr`, '1.json', 'roots.pem']);
    const verdict = execFileSync(
      'openssl',
      [
        'ts',
        '-verify',
        '-in',
        path.join(published, `1.${tsaName}.tsr`),
        '-data',
        path.join(published, '1.json'),
      ].concat(['-CAfile', path.join(published, 'roots.pem')]),
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(verdict).toContain('Verification: OK');

    // A corrupted token is shown as bad and anchors nothing.
    const token = path.join(anchors, `1.${tsaName}.tsr`);
    const bytes = readFileSync(token);
    bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff;
    writeFileSync(token, bytes);
    const broken = await readLedgerState(new HomeFiles(home), false);
    expect(broken.anchors[0]).toMatchObject({ seq: 1, ok: false });
    expect(broken.lastAnchoredSeq).toBeNull();
    const brokenHtml = ledgerPage(broken, { demo: false, live: true }, true);
    expect(brokenHtml).toContain('0 valid of 1; last anchored seq none');
    expect(brokenHtml).toContain('data-anchor="bad"');
    expect(brokenHtml).toMatch(/not yet anchored<\/dt><dd><code>3<\/code>/);
  }, 60_000);
});
