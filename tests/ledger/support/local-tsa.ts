import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A time-stamp authority on 127.0.0.1 for tests: a test CA made here with openssl, and a
 * tiny HTTP server that answers each TimeStampReq with `openssl ts -reply`. Skipped (with
 * the reason) where openssl has no `ts`.
 */

const run = promisify(execFile);

/** libfaketime, for a TSA (and its CA) whose clock is set to a day in the past. */
export const faketime: { ok: boolean; why: string } = (() => {
  const probe = spawnSync('faketime', ['2025-06-02 20:10:00', 'true']);
  return probe.status === 0 ? { ok: true, why: '' } : { ok: false, why: 'faketime (libfaketime) is not installed' };
})();

/** openssl, at `at` (UTC, "YYYY-MM-DD HH:MM:SS") when given. */
function openssl(args: string[], cwd: string, at?: string) {
  const env = { ...process.env, TZ: 'UTC' };
  return at ? run('faketime', [at, 'openssl', ...args], { cwd, env }) : run('openssl', args, { cwd, env });
}

export const opensslTs: { ok: boolean; why: string } = (() => {
  const probe = spawnSync('openssl', ['ts', '-help'], { encoding: 'utf8' });
  if (probe.error) return { ok: false, why: `openssl is not installed (${probe.error.message})` };
  return /-reply/.test(`${probe.stdout}${probe.stderr}`)
    ? { ok: true, why: '' }
    : { ok: false, why: 'this openssl has no `ts` command (RFC 3161)' };
})();

const config = `
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = unused
[ root_ext ]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ tsa_ext ]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature,nonRepudiation
extendedKeyUsage = critical,timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ tsa_config ]
serial = ./serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = no
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

export interface TestCa {
  directory: string;
  root: string;
  tsaKey: string;
  tsaCert: string;
  /** The CA's and its TSA's clock, when set back. */
  at?: string | undefined;
}

export async function makeTestCa(name: string, at?: string): Promise<TestCa> {
  const directory = mkdtempSync(path.join(tmpdir(), `autohedge-tsa-${name}-`));
  const file = (base: string) => path.join(directory, base);
  writeFileSync(file('openssl.cnf'), config);
  writeFileSync(file('serial'), '01\n');
  const ssl = (...args: string[]) => openssl(args, directory, at);
  await ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'root.key',
    '-out',
    'root.pem',
    '-days',
    '3650',
    '-subj',
    `/CN=${name} Test Root`,
    '-config',
    'openssl.cnf',
    '-extensions',
    'root_ext',
  );
  await ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.csr',
    '-subj',
    `/CN=${name} Test TSA`,
    '-config',
    'openssl.cnf',
  );
  await ssl(
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-CAcreateserial',
    '-out',
    'tsa.pem',
    '-days',
    '3650',
    '-extfile',
    'openssl.cnf',
    '-extensions',
    'tsa_ext',
  );
  return { directory, root: file('root.pem'), tsaKey: file('tsa.key'), tsaCert: file('tsa.pem'), at };
}

export interface LocalTsa {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

async function reply(ca: TestCa, query: Buffer): Promise<Buffer> {
  const work = mkdtempSync(path.join(tmpdir(), 'autohedge-tsq-'));
  writeFileSync(path.join(work, 'q.tsq'), query);
  await openssl(
    [
      'ts',
      '-reply',
      '-queryfile',
      path.join(work, 'q.tsq'),
      '-inkey',
      ca.tsaKey,
      '-signer',
      ca.tsaCert,
      '-config',
      path.join(ca.directory, 'openssl.cnf'),
      '-section',
      'tsa_config',
      '-out',
      path.join(work, 'r.tsr'),
    ],
    ca.directory,
    ca.at,
  );
  return readFileSync(path.join(work, 'r.tsr'));
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`)),
  );
}

export async function startLocalTsa(ca: TestCa): Promise<LocalTsa> {
  let count = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      count += 1;
      reply(ca, Buffer.concat(chunks)).then(
        (body) => response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body),
        (error: Error) => response.writeHead(500).end(error.message),
      );
    });
  });
  const url = await listen(server);
  return { url, requests: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A URL on which nothing answers (a port opened, then closed). */
export async function downTsaUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return url;
}
