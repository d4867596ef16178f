// A test reporter beside the spec reporter: once every file has run, the ten test files that took longest, each
// with its own duration (the runner's per-file summary), so that CI's log shows where its time goes.
const SHOWN = 10;

export default async function* slowestFiles(source) {
  const files = [];
  for await (const event of source) {
    if (event.type === "test:summary" && event.data.file !== undefined) files.push({ file: event.data.file, ms: event.data.duration_ms });
  }
  if (files.length === 0) return;
  const root = process.cwd() + "/";
  files.sort((a, b) => b.ms - a.ms);
  yield `\nThe ${Math.min(SHOWN, files.length)} slowest of ${files.length} test files:\n`;
  for (const { file, ms } of files.slice(0, SHOWN)) {
    yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file.startsWith(root) ? file.slice(root.length) : file}\n`;
  }
}
