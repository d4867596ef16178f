// Compiles every Solidity file under contracts/ with the solc npm package (no compiler download) and
// writes src/generated/contracts.ts: the ABI and creation bytecode of each deployable contract, and the searchers'
// word offsets into getMarket's answer (contracts/libraries/MarketWords.sol), which the service reads by too.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import solc from "solc";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CONTRACTS_DIR = "contracts";
export const GENERATED_FILE = path.join(REPO_ROOT, "src", "generated", "contracts.ts");

/**
 * Paris, the last EVM without PUSH0 (Shanghai) and MCOPY (Cancun): the searcher runs as a deployless call on
 * chains the project does not control, and a chain or node that lacks an opcode fails every call that uses it.
 * PUSH0 only saves 2 gas per zero pushed, so every chain that runs Paris runs these contracts.
 */
const EVM_VERSION = "paris";

const requireFromRepo = createRequire(path.join(REPO_ROOT, "package.json"));

interface SolcError {
  severity: "error" | "warning" | "info";
  errorCode?: string;
  formattedMessage: string;
  sourceLocation?: { file: string; start: number; end: number };
}

/**
 * Functions that are non-view on purpose although they change no state: the market group interface
 * declares them non-view (callers simulate them). solc's warning 2018 ("can be restricted to view") on
 * them is expected and not reported.
 */
const INTENTIONALLY_NON_VIEW = new Set(["quoteCreateTraderPosition", "quoteModifyTraderPosition"]);

function isExpectedWarning(error: SolcError, sourceOf: (unit: string) => string): boolean {
  if (error.errorCode !== "2018" || error.sourceLocation === undefined) return false;
  const { file, start, end } = error.sourceLocation;
  const name = /^function\s+(\w+)/.exec(sourceOf(file).slice(start, end))?.[1];
  return name !== undefined && INTENTIONALLY_NON_VIEW.has(name);
}

interface AstNode {
  nodeType: string;
  name?: string;
  contractKind?: string;
  abstract?: boolean;
  constant?: boolean;
  value?: { nodeType: string; kind?: string; value?: string };
  nodes?: AstNode[];
}

interface StorageSlot {
  label: string;
  slot: string;
  offset: number;
  type: string;
}

interface SolcArtifact {
  abi: unknown[];
  evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
  storageLayout?: { storage: StorageSlot[] };
}

interface SolcOutput {
  errors?: SolcError[];
  sources?: Record<string, { ast: AstNode }>;
  contracts?: Record<string, Record<string, SolcArtifact>>;
}

/** EIP-170: the most code a contract may have; EIP-3860: the most creation code a transaction may carry. */
const MAX_CODE_BYTES = 24_576;
const MAX_INITCODE_BYTES = 49_152;

/**
 * The market group delegatecalls its configuration and liquidity modules, which run on the group's storage: all
 * three inherit MarketGroupStorage and must declare nothing else. Checked here, so that a variable added to one of them fails the
 * build rather than corrupting the other's state.
 */
const SHARED_STORAGE = [
  { unit: `${CONTRACTS_DIR}/MarketGroup.sol`, name: "MarketGroup" },
  { unit: `${CONTRACTS_DIR}/MarketConfigurationModule.sol`, name: "MarketConfigurationModule" },
  { unit: `${CONTRACTS_DIR}/LiquidityModule.sol`, name: "LiquidityModule" },
] as const;

/** Throws unless every contract of SHARED_STORAGE has the same storage layout (slots, offsets, types, names). */
export function checkSharedStorage(layouts: readonly (readonly StorageSlot[] | undefined)[]): void {
  const described = layouts.map((layout) => JSON.stringify((layout ?? []).map(({ label, slot, offset, type }) => ({ label, slot, offset, type }))));
  const differing = described.findIndex((layout) => layout !== described[0]);
  if (layouts.some((layout) => layout === undefined || layout.length === 0)) throw new Error("no storage layout for the market group or one of its modules");
  if (differing >= 0) {
    throw new Error(`${SHARED_STORAGE[differing]!.name} does not have ${SHARED_STORAGE[0].name}'s storage layout: both must declare their state in MarketGroupStorage only`);
  }
}

/** Throws when a contract's code or creation code is past what a chain accepts (EIP-170, EIP-3860). */
export function checkCodeSize(name: string, artifact: SolcArtifact): void {
  const code = artifact.evm.deployedBytecode.object.length / 2;
  const initcode = artifact.evm.bytecode.object.length / 2;
  if (code > MAX_CODE_BYTES) throw new Error(`${name}: ${code} bytes of code, past EIP-170's ${MAX_CODE_BYTES}`);
  if (initcode > MAX_INITCODE_BYTES) throw new Error(`${name}: ${initcode} bytes of creation code, past EIP-3860's ${MAX_INITCODE_BYTES}`);
}

/** The source unit names (paths relative to the repo, with "/") of every .sol file under contracts/. */
function listSources(dir = CONTRACTS_DIR): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const unit = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return listSources(unit);
      return entry.isFile() && entry.name.endsWith(".sol") ? [unit] : [];
    })
    .sort();
}

/** Resolves imports that are not under contracts/ (e.g. "@openzeppelin/...") from node_modules. */
function findImport(unit: string): { contents: string } | { error: string } {
  const local = path.join(REPO_ROOT, unit);
  if (unit.startsWith(`${CONTRACTS_DIR}/`) && existsSync(local)) return { contents: readFileSync(local, "utf8") };
  try {
    return { contents: readFileSync(requireFromRepo.resolve(unit), "utf8") };
  } catch {
    return { error: `import not found: ${unit}` };
  }
}

/** Recursively sorts object keys, so JSON output does not depend on the compiler's key order. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
  }
  return value;
}

/** "MarketGroup" -> "marketGroup", "ERC20Mock" -> "erc20Mock". */
export function camelName(contractName: string): string {
  const leadingCaps = /^[A-Z0-9]+(?=[A-Z][a-z]|$)/.exec(contractName)?.[0] ?? contractName.slice(0, 1);
  return leadingCaps.toLowerCase() + contractName.slice(leadingCaps.length);
}

/** The names of the non-abstract contracts (not interfaces, libraries or abstract contracts) a source defines. */
function deployableNames(ast: AstNode): string[] {
  return (ast.nodes ?? [])
    .filter((node) => node.nodeType === "ContractDefinition" && node.contractKind === "contract" && !node.abstract)
    .map((node) => node.name ?? "");
}

type AbiParameter = { name: string; type: string; components?: AbiParameter[] };
type AbiEntry = { type: string; name?: string; outputs?: AbiParameter[] };

const SEARCHER_SOURCE = `${CONTRACTS_DIR}/libraries/MarketWords.sol`;
const MARKET_GROUP_INTERFACE = { unit: `${CONTRACTS_DIR}/interfaces/IMarketGroup.sol`, name: "IMarketGroup" };

/** Whether values of an ABI type are encoded behind an offset (bytes, string, T[], or a tuple holding one). */
function isDynamic(parameter: AbiParameter): boolean {
  if (parameter.type === "bytes" || parameter.type === "string" || parameter.type.endsWith("[]")) return true;
  return parameter.type === "tuple" && (parameter.components ?? []).some(isDynamic);
}

/**
 * The searchers read `getMarket`'s answer by word offsets they cannot take from the compiler (they must never revert
 * on a malformed answer, so they do not abi.decode it), all written in SEARCHER_SOURCE: MarketData behind one
 * offset, `marketId` and `startTime` its first two words, the fields they read at their *_WORD index, and
 * MARKET_DATA_HEAD_WORDS words of head; MarketParams inline after the offset, one word per field. Checked here
 * against the interface's ABI, so that a changed struct fails the build rather than every quote. Throws on a
 * mismatch.
 */
export function checkSearcherLayout(marketGroupAbi: readonly AbiEntry[], words: Readonly<Record<string, number>>): void {
  const constant = (name: string) => {
    const word = words[name];
    if (word === undefined) throw new Error(`${SEARCHER_SOURCE}: constant ${name} not found`);
    return word;
  };
  const getMarket = marketGroupAbi.find((entry) => entry.type === "function" && entry.name === "getMarket");
  const data = getMarket?.outputs?.[0];
  const params = getMarket?.outputs?.[1];
  if (data === undefined || data.type !== "tuple" || !isDynamic(data)) {
    throw new Error("IMarketGroup.getMarket must return MarketData first, encoded behind an offset");
  }
  if (params === undefined || params.type !== "tuple" || isDynamic(params)) {
    throw new Error("IMarketGroup.getMarket must return MarketParams second, encoded inline");
  }
  const fields = data.components ?? [];
  const paramFields = params.components ?? [];
  const wide = [...fields, ...paramFields].find((field) => !isDynamic(field) && (field.type === "tuple" || field.type.endsWith("]")));
  if (wide !== undefined) throw new Error(`getMarket's ${wide.name} takes more than one head word; the searchers read one word per field`);
  const dataWord = (name: string) => fields.findIndex((field) => field.name === name);
  // MarketParams' fields follow the MarketData offset (word 0).
  const paramWord = (name: string) => {
    const index = paramFields.findIndex((field) => field.name === name);
    return index < 0 ? index : 1 + index;
  };
  const expected: [name: string, struct: string, words: number][] = [
    ["MARKET_DATA_HEAD_WORDS", "MarketData", fields.length],
    ["SETTLED_WORD", "MarketData", dataWord("settled")],
    ["POOL_WORD", "MarketData", dataWord("pool")],
    ["QUOTE_TOKEN_WORD", "MarketData", dataWord("quoteToken")],
    ["BASE_TOKEN_WORD", "MarketData", dataWord("baseToken")],
    ["MIN_PRICE_WORD", "MarketData", dataWord("minPriceD18")],
    ["MAX_PRICE_WORD", "MarketData", dataWord("maxPriceD18")],
    ["FEE_WORD", "MarketParams", paramWord("feeRate")],
    ["QUOTER_WORD", "MarketParams", paramWord("uniswapQuoter")],
  ];
  if (fields[0]?.name !== "marketId" || fields[1]?.name !== "startTime") {
    throw new Error("MarketData must start with marketId and startTime: the searcher reads its first two words as those");
  }
  for (const [name, struct, words] of expected) {
    if (constant(name) !== words) {
      throw new Error(`${SEARCHER_SOURCE}: ${name} is ${constant(name)}, but IMarketGroup.${struct} gives ${words}`);
    }
  }
}

/**
 * The file-level constants of SEARCHER_SOURCE (its AST from the compiler), by name in the order written: the word
 * offsets the searchers read getMarket's answer by. Throws on one that is not a plain number.
 */
export function searcherWords(ast: AstNode): Record<string, number> {
  const words: Record<string, number> = {};
  for (const node of ast.nodes ?? []) {
    if (node.nodeType !== "VariableDeclaration" || node.constant !== true) continue;
    const { nodeType, kind, value = "" } = node.value ?? { nodeType: "" };
    if (nodeType !== "Literal" || kind !== "number" || !/^\d+$/.test(value)) throw new Error(`${SEARCHER_SOURCE}: constant ${node.name} is not a plain number`);
    words[node.name ?? ""] = Number(value);
  }
  return words;
}

/**
 * The deployless searchers, compiled through the IR pipeline: their code travels as calldata with every quote (its gas
 * the largest fixed part of an exact quote's), and the IR optimizer makes it about 7% smaller and its own steps cheaper.
 * Everything else, the reference market group first, is compiled as before, so that a candidate's gas stays the
 * reference market's.
 */
const VIA_IR_UNITS = new Set(["QuoteSearcher", "ExactQuoteSearcher", "BatchQuoteSearcher", "DepthLadderSearcher", "PositionSearcher", "LiquiditySearcher"].map((name) => `${CONTRACTS_DIR}/${name}.sol`));

/**
 * Contracts run as code at an address through eth_call's state override (the position searcher, at the owner's): their
 * runtime code is exported too, as `<name>Code`.
 */
const OVERRIDE_CODE = new Set(["PositionSearcher"]);

/** Compiles `sources` with or without the IR pipeline; throws on compiler errors, writes warnings. */
function compile(sources: Record<string, { content: string }>, viaIR: boolean, selected: (unit: string) => boolean): SolcOutput {
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      viaIR,
      evmVersion: EVM_VERSION,
      outputSelection: Object.fromEntries(Object.keys(sources).map((unit) => [unit, { "": ["ast"], "*": selected(unit) ? ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "storageLayout"] : [] }])),
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const problems = (output.errors ?? []).filter((e) => e.severity !== "info" && !isExpectedWarning(e, (unit) => sources[unit]?.content ?? ""));
  const errors = problems.filter((e) => e.severity === "error");
  if (problems.length > 0) {
    const text = problems.map((e) => e.formattedMessage).join("\n");
    if (errors.length > 0) throw new Error(`solc failed:\n${text}`);
    process.stderr.write(`solc warnings:\n${text}\n`);
  }
  return output;
}

/** Compiles contracts/ and returns the text of src/generated/contracts.ts. Throws on compiler errors. */
export function compileContracts(): string {
  const units = listSources();
  const sources = Object.fromEntries(units.map((unit) => [unit, { content: readFileSync(path.join(REPO_ROOT, unit), "utf8") }]));
  const legacy = compile(sources, false, (unit) => !VIA_IR_UNITS.has(unit));
  const viaIR = compile(sources, true, (unit) => VIA_IR_UNITS.has(unit));
  const output: SolcOutput = { ...legacy, contracts: { ...legacy.contracts, ...Object.fromEntries([...VIA_IR_UNITS].map((unit) => [unit, viaIR.contracts?.[unit] ?? {}])) } };

  const marketGroupInterface = output.contracts?.[MARKET_GROUP_INTERFACE.unit]?.[MARKET_GROUP_INTERFACE.name];
  const words = searcherWords(output.sources?.[SEARCHER_SOURCE]?.ast ?? { nodeType: "SourceUnit" });
  checkSearcherLayout((marketGroupInterface?.abi ?? []) as AbiEntry[], words);
  checkSharedStorage(SHARED_STORAGE.map(({ unit, name }) => output.contracts?.[unit]?.[name]?.storageLayout?.storage));

  // The service reads getMarket's answer by the same words as the searchers (src/chain/searchers/priceEdge.ts).
  const blocks = [`// ${SEARCHER_SOURCE}: the words of getMarket's answer the searchers read\nexport const marketWords = ${JSON.stringify(words, null, 2)} as const;\n`];
  const seen = new Map<string, string>();
  for (const unit of units) {
    for (const name of deployableNames(output.sources?.[unit]?.ast ?? { nodeType: "SourceUnit" })) {
      const previous = seen.get(name);
      if (previous !== undefined) throw new Error(`contract ${name} is defined in both ${previous} and ${unit}`);
      seen.set(name, unit);
      const artifact = output.contracts?.[unit]?.[name];
      if (artifact === undefined || artifact.evm.bytecode.object === "") throw new Error(`no bytecode for ${unit}:${name}`);
      checkCodeSize(name, artifact);
      const camel = camelName(name);
      blocks.push(
        `// ${unit}:${name}\n` +
          `export const ${camel}Abi = ${JSON.stringify(sortKeys(artifact.abi), null, 2)} as const;\n\n` +
          `export const ${camel}Bytecode = "0x${artifact.evm.bytecode.object}" as const;\n` +
          (OVERRIDE_CODE.has(name) ? `\nexport const ${camel}Code = "0x${artifact.evm.deployedBytecode.object}" as const;\n` : ""),
      );
    }
  }
  const header =
    `// generated by npm run build:contracts; do not edit.\n` +
    `// solc ${solc.version()}, optimizer on (200 runs; the searchers via IR), evmVersion ${EVM_VERSION}; sources: ${CONTRACTS_DIR}/**/*.sol\n`;
  return [header, ...blocks].join("\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  writeFileSync(GENERATED_FILE, compileContracts());
  process.stdout.write(`wrote ${path.relative(REPO_ROOT, GENERATED_FILE)}\n`);
}
