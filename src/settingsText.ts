// The settings table of src/config.ts as text: the configuration table (docs/configuration.md), .env.example and the list in
// `quoter serve --help`. `npm run settings` writes the first two; a test fails when either is stale.
import { RPC_URL_SETTING, RPC_WS_URL_SETTING, SETTINGS, type SettingName } from "./config.ts";

const NAMES = Object.keys(SETTINGS) as SettingName[];
const WIDTH = 110;

/** The lines of `text` at most WIDTH wide (a longer word stands alone), each after `prefix`. */
function wrap(text: string, prefix: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && prefix.length + line.length + 1 + word.length > WIDTH) {
      lines.push(prefix + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, prefix + line];
}

/** A setting as `.env` sets it: its default, or, for one with none (REDIS_URL), an example left commented out. */
const assignment = (name: SettingName) => (SETTINGS[name].default === undefined ? `# ${name}=redis://127.0.0.1:6379` : `${name}=${SETTINGS[name].default}`);
const defaultText = (name: SettingName) => (SETTINGS[name].default === undefined ? "none" : `\`${SETTINGS[name].default}\``);
const labelOf = (name: SettingName) => (SETTINGS[name].default === undefined ? name : `${name}=${SETTINGS[name].default}`);

const sentence = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}.`;

/** The configuration table of docs/configuration.md, from its header row to its last row. */
export function readmeSettingsTable(): string {
  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [
    row(["variable", "default", "accepts", "meaning"]),
    "|---|---|---|---|",
    row([`\`${RPC_URL_SETTING.name}\``, "none", RPC_URL_SETTING.accepts, RPC_URL_SETTING.meaning]),
    row([`\`${RPC_WS_URL_SETTING.name}\``, "none", RPC_WS_URL_SETTING.accepts, RPC_WS_URL_SETTING.meaning]),
    ...NAMES.map((name) => row([`\`${name}\``, defaultText(name), SETTINGS[name].accepts, SETTINGS[name].meaning])),
  ].join("\n");
}

/** `readme` with its configuration table replaced by the table's current text. */
export function withSettingsTable(readme: string): string {
  const header = readme.indexOf("| variable | default |", readme.indexOf("## Configuration"));
  if (header < 0) throw new Error("docs/configuration.md: no configuration table under ## Configuration");
  const end = readme.indexOf("\n\n", header);
  return `${readme.slice(0, header)}${readmeSettingsTable()}${readme.slice(end)}`;
}

export function envExample(): string {
  const entries = [
    [
      ...wrap(`${sentence(RPC_URL_SETTING.meaning.replace(/\.$/, ""))} ${sentence(RPC_URL_SETTING.accepts)}`, "# "),
      "# RPC_URL_1=https://mainnet.example/v3/your-key,https://fallback.example",
      "# RPC_URL_31337=http://127.0.0.1:8545",
    ],
    [
      ...wrap(`${sentence(RPC_WS_URL_SETTING.meaning.replace(/\.$/, ""))} ${sentence(RPC_WS_URL_SETTING.accepts)}`, "# "),
      "# RPC_WS_URL_1=wss://mainnet.example/ws/v3/your-key",
    ],
    ...NAMES.map((name) => [
      ...wrap(`${sentence(SETTINGS[name].meaning)} ${sentence(SETTINGS[name].accepts)}`, "# "),
      assignment(name),
    ]),
  ];
  const header = [
    "# Every setting of the quoter, with its default. All are optional; a bad value stops start-up with the",
    "# variable's name and rule (exit status 1). Export them, or keep them in a .env file and start with",
    "#   node --env-file=.env dist/main.js",
    "# Written by `npm run settings` from the table in src/config.ts: change the table, not this file.",
  ];
  return [header, ...entries].map((lines) => lines.join("\n")).join("\n\n") + "\n";
}

/** For a terminal: each variable with its default, what it means and what it accepts, without Markdown. */
export function settingsHelp(): string {
  const plain = (text: string) => text.replaceAll("`", "");
  const column = " ".repeat(32);
  const entry = (label: string, text: string) => {
    const lines = wrap(plain(text), column);
    // A label too long for its column stands on a line of its own, the text under it.
    if (label.length > column.length - 3) return [`  ${label}`, ...lines].join("\n");
    const [first, ...rest] = lines;
    return [`  ${label.padEnd(column.length - 2)}${first!.slice(column.length)}`, ...rest].join("\n");
  };
  return [
    entry(RPC_URL_SETTING.name, `${RPC_URL_SETTING.meaning} ${sentence(RPC_URL_SETTING.accepts)}`),
    entry(RPC_WS_URL_SETTING.name, `${RPC_WS_URL_SETTING.meaning} ${sentence(RPC_WS_URL_SETTING.accepts)}`),
    ...NAMES.map((name) => entry(labelOf(name), `${sentence(SETTINGS[name].meaning)} ${sentence(SETTINGS[name].accepts)}`)),
  ].join("\n");
}
