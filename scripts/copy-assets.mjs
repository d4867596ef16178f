// The part of the build tsc does not do: the explorer's page (plain HTML, CSS and browser modules, served as they
// are) goes beside its compiled plugin in dist/, and so do the modules the page imports from the client package:
// client/dist (built just before) and eventsource-parser's ES module build, so that the service's own package
// (npm pack) serves them with nothing else installed. Plain JavaScript, so that it runs with node alone.
import { cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";

const explorer = new URL("../dist/http/explorer/", import.meta.url);
const page = new URL("page/", explorer);
rmSync(page, { recursive: true, force: true });
cpSync(new URL("../src/http/explorer/page/", import.meta.url), page, { recursive: true });

const client = new URL("client/", explorer);
const built = new URL("../client/dist/", import.meta.url);
rmSync(client, { recursive: true, force: true });
mkdirSync(client, { recursive: true });
for (const name of readdirSync(built).filter((file) => file.endsWith(".js"))) cpSync(new URL(name, built), new URL(name, client));

const vendor = new URL("vendor/", explorer);
rmSync(vendor, { recursive: true, force: true });
mkdirSync(vendor, { recursive: true });
cpSync(new URL(import.meta.resolve("eventsource-parser")), new URL("eventsource-parser.js", vendor));
