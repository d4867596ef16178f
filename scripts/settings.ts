// Writes .env.example and the configuration table of docs/configuration.md from the settings table in src/config.ts.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envExample, withSettingsTable } from "../src/settingsText.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readme = path.join(ROOT, "docs", "configuration.md");

writeFileSync(path.join(ROOT, ".env.example"), envExample());
writeFileSync(readme, withSettingsTable(readFileSync(readme, "utf8")));
console.log("wrote .env.example and the configuration table of docs/configuration.md");
