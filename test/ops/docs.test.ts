// The documents as a newcomer reads them in a clone: a short README whose two set-up commands come first, and
// every relative link of the README and docs/ pointing at a file of the repository.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;
const README = readFileSync(join(ROOT, "README.md"), "utf8");

test("the README is at most 8 KB, and its set-up section holds exactly the two commands", () => {
  assert.ok(Buffer.byteLength(README) <= 8 * 1024, `${Buffer.byteLength(README)} bytes`);
  const setUp = README.slice(README.indexOf("## Set up"), README.indexOf("\n## ", README.indexOf("## Set up") + 1));
  const commands = [...setUp.matchAll(/```sh\n([^`]*)```/g)].map((match) => match[1]!.trim());
  assert.deepEqual(commands, ["npm ci && npm start", "npm ci && npm test"]);
});

test("every relative link of the README and docs/ names a file of the repository", () => {
  const documents = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
  let links = 0;
  for (const document of documents) {
    const text = readFileSync(join(ROOT, document), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      links++;
      const file = target!.split("#")[0]!;
      assert.ok(existsSync(join(ROOT, dirname(document), file)), `${document} links ${target}`);
    }
  }
  assert.ok(links >= 8, `${links} links checked`);
});
