#!/usr/bin/env node
// vitest paints its output whenever TERM is not "dumb", even into a pipe or a file
// (tinyrainbow's rule), so `npm test > log.txt` would fill the log with escape codes.
// This runs vitest with NO_COLOR unless stdout is a terminal or FORCE_COLOR says
// otherwise; every argument goes through unchanged.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const env = { ...process.env };
if (!process.stdout.isTTY && env.FORCE_COLOR === undefined) env.NO_COLOR = '1';
const result = spawnSync(process.execPath, [vitest, ...process.argv.slice(2)], { stdio: 'inherit', env });
if (result.error) throw result.error;
process.exitCode = result.status ?? 1;
