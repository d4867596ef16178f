#!/usr/bin/env node
// The `quoter` command: runs the TypeScript CLI (src/cli/main.ts) through tsx, a runtime dependency, so that
// there is no build step. `quoter --help` lists the commands.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
