#!/usr/bin/env node
// The `quoter` command: runs the compiled CLI (dist/cli/command.js, built by `npm run build`, which `npm ci` runs
// and the published package ships). `quoter --help` lists the commands.
await import("../dist/cli/command.js");
