#!/usr/bin/env node
// Thin shim: hand argv to the CLI (which turns Ctrl-C, SIGHUP and SIGTERM into an abort), exit with its code.
// A clone that was never built has no dist/: say so in one line instead of a stack.
import('../dist/src/cli/main.js').then(
  ({ main }) => main(process.argv.slice(2)),
  (error) => {
    const missing =
      error?.code === 'ERR_MODULE_NOT_FOUND' && /[\\/]dist[\\/]src[\\/]cli[\\/]main\.js/.test(String(error.message));
    if (!missing) throw error;
    process.stderr.write('autohedge is not built: run npm run build\n');
    process.exitCode = 1;
  },
);
