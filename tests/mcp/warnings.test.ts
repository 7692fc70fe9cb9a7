import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';

// A server that dies at once, writing a screen-clearing sequence and the token its config
// gave it to stderr: the warning naming it must carry neither.
const dyingServer = "process.stderr.write('\\u001b[2J\\u001b]52;c;cm0=\\u0007 token=' + process.env.MCP_TOKEN); process.exit(1)";

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
});
