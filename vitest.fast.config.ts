// `npm run test:fast`: the suite without the tests that start other programs — the built CLI,
// MCP stdio servers, redis-server, Chromium, `openssl ts`, the llama engine, a nested vitest,
// the packed package — which are most of its wall time on a shared machine. `npm test` runs all.
// The list is tests/support/process-starting.ts.
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { processStarting } from './tests/support/process-starting.js';
import base from './vitest.config.js';

export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...processStarting] } }));
