// The part of the build tsc does not do: the explorer's page (plain HTML, CSS and browser modules, served as they
// are) goes beside its compiled plugin in dist/. Plain JavaScript, so that it runs with node alone.
import { cpSync, rmSync } from "node:fs";

const from = new URL("../src/http/explorer/page/", import.meta.url);
const to = new URL("../dist/http/explorer/page/", import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
