#!/usr/bin/env node
// Thin shim: hand argv to the CLI (which turns Ctrl-C, SIGHUP and SIGTERM into an abort), exit with its code.
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2));
