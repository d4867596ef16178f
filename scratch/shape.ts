import ts from "typescript";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
const files: string[] = [];
const walk = (d: string) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) { if (n !== "generated") walk(p); } else if (p.endsWith(".ts")) files.push(resolve(p)); } };
walk("src");
const graph = new Map<string, string[]>();
for (const f of files) {
  const sf = ts.createSourceFile(f, readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true);
  const deps: string[] = [];
  const visit = (n: ts.Node) => {
    if ((ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n)) && n.body) {
      const a = sf.getLineAndCharacterOfPosition(n.getStart()).line, b = sf.getLineAndCharacterOfPosition(n.end).line;
      if (b - a + 1 > 60) console.log(`FN ${b - a + 1} ${f.replace(process.cwd() + "/", "")}:${a + 1} ${(n as any).name?.getText?.() ?? ""}`);
    }
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier) && n.moduleSpecifier.text.startsWith(".")) deps.push(resolve(dirname(f), n.moduleSpecifier.text));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  graph.set(f, deps);
}
// cycles
const state = new Map<string, number>(); const stack: string[] = [];
const dfs = (f: string) => { state.set(f, 1); stack.push(f); for (const d of graph.get(f) ?? []) { if (!graph.has(d)) continue; if (state.get(d) === 1) console.log("CYCLE " + stack.slice(stack.indexOf(d)).concat(d).map((x) => x.replace(process.cwd() + "/", "")).join(" -> ")); else if (!state.has(d)) dfs(d); } stack.pop(); state.set(f, 2); };
for (const f of files) if (!state.has(f)) dfs(f);
