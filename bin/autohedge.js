#!/usr/bin/env node
// Thin shim: hand argv to the CLI, turn Ctrl-C into an abort, exit with its code.
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2));
