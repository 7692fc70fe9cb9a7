import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCli } from '../../src/cli/run-cli.js';
import { makeViewHome, treeDigest, type ViewHome } from './fixture.js';
import { fetchRaw, serve, type Served } from './serve.js';
import { contentSecurityPolicy } from '../../src/view/server.js';

/**
 * `autohedge view` over a real home: read-only (GET and HEAD, else 405), no path leaves
 * the home, run ids are checked, loopback by default, every answer under the reports'
 * CSP, and the home byte-identical after every page was read (the track record computed too).
 */

let fixture: ViewHome;
let before: Map<string, string>;
let served: Served;
let demo: Served;

beforeAll(async () => {
  fixture = await makeViewHome();
  before = treeDigest(fixture.home);
  served = await serve(fixture.io());
  demo = await serve(fixture.io(), ['--demo']);
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await demo?.stop();
});

const pages = [
  '/',
  '/index.html',
  '/runs/',
  '/runs/index.html',
  '/track-record.html',
  '/track-record.html?compute=1',
  '/ledger/index.html',
  '/evaluations/index.html',
  '/portfolios/index.html',
  '/watch/index.html',
  '/runs/index.html?ticker=acme&status=ok&mode=demo',
  '/runs/index.html?ticker=%3Cscript%3E&status=nope',
];

describe('autohedge view', () => {
  test('binds loopback by default and prints its URL', () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(served.io.err()).toContain('read-only');
    expect(served.io.err()).not.toContain('warning');
  });

  test('serves every page with the reports’ CSP', async () => {
    for (const server of [served, demo])
      for (const path of pages) {
        const answer = await fetchRaw(server.url, path);
        expect(answer.status, `${path}: ${answer.body.slice(0, 300)}`).toBe(200);
        expect(answer.headers['content-security-policy']).toBe(contentSecurityPolicy);
        expect(answer.body).not.toMatch(/<script/i);
      }
  });

  test('a bad filter is dropped, never echoed', async () => {
    const answer = await fetchRaw(served.url, '/runs/index.html?ticker=%3Cscript%3E');
    expect(answer.body).not.toContain('<script>');
    expect(answer.body).not.toContain('&lt;script');
  });

  test('refuses every method but GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const answer = await fetchRaw(served.url, '/', method);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
    const head = await fetchRaw(served.url, '/runs/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  test('view --demo lists the demo watch cycles (watch/demo/), whose rows link to runs it serves; the live view does not', async () => {
    const list = await fetchRaw(demo.url, '/watch/index.html');
    const href = /href="(demo\/[^"]+\/delta\.html)"/.exec(list.body)?.[1] ?? '';
    expect(href, list.body).not.toBe('');
    const page = await fetchRaw(demo.url, `/watch/${href}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<p class="banner" data-demo="">DEMO');
    const report = /<td><a href="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const target = new URL(report, new URL(`watch/${href}`, demo.url)).pathname;
    expect(target).toMatch(/^\/runs\/[^/]+\/report\.html$/);
    expect((await fetchRaw(demo.url, target)).status).toBe(200);
    expect((await fetchRaw(served.url, '/watch/index.html')).body).not.toContain('demo/');
    expect((await fetchRaw(served.url, `/watch/${href}`)).status).toBe(404);
  });

  test('no path leaves the home, and bad run ids are refused', async () => {
    const secret = readFileSync(fixture.secret, 'utf8');
    const attempts = [
      '/../secret.txt',
      '/runs/../../secret.txt',
      '/runs/%2e%2e/%2e%2e/secret.txt',
      '/runs/..%2f..%2fsecret.txt',
      '/runs/..%5c..%5csecret.txt',
      '/ledger/anchors/..%2f..%2f..%2fsecret.txt',
      '/ledger/anchors/%2e%2e',
      '/watch/escape/delta.html',
      '/watch/..%2f..%2fsecret.txt/delta.html',
      '/evaluations/../../secret.txt',
      '/%00',
      '/runs/%E0%A4%A/report.html',
      '/runs/bad$id/report.html',
      '/runs/.hidden/report.html',
      '/runs/20261207-nope/report.html',
      '/runs/-x/report.html',
      '/runs/a%2Fb/report.html',
      '/ledger/signing-key.pem',
      '/runs/index.html/../../secret.txt',
    ];
    for (const path of attempts) {
      const answer = await fetchRaw(served.url, path);
      expect([400, 404], `${path} answered ${answer.status}`).toContain(answer.status);
      expect(answer.body).not.toContain(secret.trim());
      expect(answer.body).not.toContain('outside the home');
    }
  });

  test('leaves the home byte-identical', async () => {
    for (const server of [served, demo])
      for (const path of [...pages, '/ledger/ledger-export.jsonl', '/ledger/anchors/000000.tsr'])
        await fetchRaw(server.url, path);
    expect(treeDigest(fixture.home)).toEqual(before);
  });

  test('another host must be named, and then it warns', async () => {
    const open = await serve(fixture.io(), ['--host', '0.0.0.0']);
    try {
      expect(open.io.err()).toContain('warning: listening on 0.0.0.0, not loopback');
    } finally {
      expect(await open.stop()).toBe(0);
    }
  });

  test('--bundle refuses a folder inside the home, or one that is not empty', async () => {
    const inside = fixture.io();
    expect(await runCli(['view', '--bundle', join(fixture.home, 'site')], inside)).toBe(2);
    expect(inside.err()).toContain('is inside $AUTOHEDGE_HOME');
    const full = fixture.io();
    expect(await runCli(['view', '--bundle', dirname(fixture.home)], full)).toBe(2);
    expect(full.err()).toContain('is not empty');
    expect(treeDigest(fixture.home)).toEqual(before);
  });

  test('stops cleanly when its signal fires (Ctrl-C)', async () => {
    const once = await serve(fixture.io());
    expect(await once.stop()).toBe(0);
    await expect(fetchRaw(once.url, '/')).rejects.toThrow();
  });
});
