// The shape of src/ that docs/architecture.md describes: layers that import only downwards (http → service →
// chain → quote), the chain layer's rooms likewise (trade, searchers → head → rpc), no import circle (type-only imports included), and modules and functions short enough to read:
// no file over 250 lines, no function over 60 (the generated contracts aside).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const SRC = new URL("../../src/", import.meta.url).pathname;
const LAYERS = ["quote", "chain", "service", "http"] as const;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" ? [] : sources(path);
    return path.endsWith(".ts") ? [resolve(path)] : [];
  });
}

/** Each module's relative imports (and re-exports), type-only ones included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    const imports: string[] = [];
    for (const statement of source.statements) {
      const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) ? statement.moduleSpecifier : undefined;
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith(".")) imports.push(resolve(dirname(file), specifier.text));
    }
    graph.set(file, imports);
  }
  return graph;
}

const layerOf = (file: string) => LAYERS.indexOf(relative(SRC, file).split("/")[0] as (typeof LAYERS)[number]);

test("the layers import only downwards: quote imports none of the others, chain only quote, service not http", () => {
  const upward: string[] = [];
  for (const [file, imports] of importGraph()) {
    const layer = layerOf(file);
    if (layer < 0) continue;
    for (const imported of imports) {
      const other = layerOf(imported);
      if (other > layer) upward.push(`${relative(SRC, file)} imports ${relative(SRC, imported)}`);
    }
  }
  assert.deepEqual(upward, []);
});

/** The chain layer's rooms, in order: each imports only the ones before it (and the quote layer). */
const ROOMS = ["rpc", "head", "searchers", "trade"] as const;
const roomOf = (file: string) => {
  const [layer, room] = relative(SRC, file).split("/");
  return layer === "chain" ? ROOMS.indexOf(room as (typeof ROOMS)[number]) : -2;
};

test("src/chain is in rooms, each importing only the ones before it: rpc none, head rpc, searchers and trade the rest", () => {
  const files = [...importGraph().keys()].filter((file) => relative(SRC, file).startsWith("chain/"));
  assert.deepEqual(files.filter((file) => roomOf(file) < 0).map((file) => relative(SRC, file)), [], "every file of src/chain in a room");
  const upward: string[] = [];
  for (const [file, imports] of importGraph()) {
    const room = roomOf(file);
    if (room < 0) continue;
    for (const imported of imports) if (roomOf(imported) > room) upward.push(`${relative(SRC, file)} imports ${relative(SRC, imported)}`);
  }
  assert.deepEqual(upward, []);
});

test("the head is entered through its follower only", () => {
  const inside: string[] = [];
  for (const [file, imports] of importGraph()) {
    if (relative(SRC, file).startsWith("chain/head/")) continue;
    for (const imported of imports) {
      const name = relative(SRC, imported);
      if (name.startsWith("chain/head/") && name !== "chain/head/follower.ts") inside.push(`${relative(SRC, file)} imports ${name}`);
    }
  }
  assert.deepEqual(inside, []);
});

test("no import circle in src/, type-only imports included", () => {
  const graph = importGraph();
  const circles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") circles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(SRC, f)).join(" → "));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  assert.deepEqual(circles, []);
});

test("no file of src/ over 250 lines, no function over 60", () => {
  const long: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n").length;
    if (lines > 250) long.push(`${relative(SRC, file)}: ${lines} lines`);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      const isFunction = ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessor(node);
      if (isFunction && node.body !== undefined) {
        const from = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const to = source.getLineAndCharacterOfPosition(node.end).line;
        if (to - from + 1 > 60) long.push(`${relative(SRC, file)}:${from + 1}: a function of ${to - from + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, []);
});
