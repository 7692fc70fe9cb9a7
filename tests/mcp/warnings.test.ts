import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

// A server that dies at once, writing a screen-clearing sequence and the token its config
// gave it to stderr: the warning naming it must carry neither.
const dyingServer =
  "process.stderr.write('\\u001b[2J\\u001b]52;c;cm0=\\u0007 token=' + process.env.MCP_TOKEN); process.exit(1)";

describe('a failing MCP server in the warnings', () => {
  it('is sanitised and its configured secrets are scrubbed', async () => {
    const io = captureIo();
    const config = join(io.cwd, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          dying: {
            command: process.execPath,
            args: ['-e', dyingServer],
            env: { MCP_TOKEN: 'mcp-secret-token-4242' },
            autohedge: { agents: { quant: ['anything'] } },
          },
        },
      }),
    );
    await runCli(['tools', '--mcp-config', config], io);
    const stderr = io.err();
    expect(stderr).toContain("MCP server 'dying' is unavailable");
    expect(stderr).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(stderr).not.toContain('mcp-secret-token-4242');
  });

  it('a wrapper that exits at once leaves no grandchild running in its process group', async () => {
    const io = captureIo();
    const pidFile = join(io.cwd, 'grandchild.pid');
    // Like `npx` or a shell wrapper: starts the real server and exits.
    const wrapper = `const { spawn } = require('node:child_process'); const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid)); process.exit(1);`;
    const config = join(io.cwd, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          wrapped: { command: process.execPath, args: ['-e', wrapper], autohedge: { agents: { quant: ['x'] } } },
        },
      }),
    );
    await runCli(['tools', '--mcp-config', config], io);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    // A killed process whose parent already exited may linger as a zombie until it is reaped:
    // that counts as gone.
    const alive = () => {
      try {
        process.kill(grandchild, 0);
      } catch {
        return false;
      }
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${grandchild}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    for (let waited = 0; alive() && waited < 2_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(alive()).toBe(false);
  });
});
