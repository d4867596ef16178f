// The committed src/generated/contracts.ts is what `npm run build:contracts` produces from contracts/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { camelName, checkCodeSize, checkSearcherLayout, checkSharedStorage, compileContracts, GENERATED_FILE, searcherWords } from "../../scripts/build-contracts.ts";
import { marketGroupAbi, marketGroupBytecode, marketWords } from "../../src/generated/contracts.ts";

test("src/generated/contracts.ts is not stale: compiling contracts/ again gives it byte for byte (run npm run build:contracts)", () => {
  assert.equal(compileContracts(), readFileSync(GENERATED_FILE, "utf8"));
});

test("generated names are the contract name in camel case: MarketGroup -> marketGroupAbi / marketGroupBytecode", () => {
  assert.equal(camelName("MarketGroup"), "marketGroup");
  assert.equal(camelName("ERC20Mock"), "erc20Mock");
  assert.equal(camelName("Searcher"), "searcher");
  assert.equal(camelName("A"), "a");
});

test("the searchers' word offsets into getMarket's answer (MarketWords.sol) are checked against the interface at build time, and written out for the service", () => {
  const abi = JSON.parse(JSON.stringify(marketGroupAbi)) as { name?: string; outputs?: { components?: { name: string }[] }[] }[];
  assert.doesNotThrow(() => checkSearcherLayout(abi as never, marketWords));
  assert.throws(() => checkSearcherLayout(abi as never, { ...marketWords, SETTLED_WORD: 9 }), /SETTLED_WORD is 9, but IMarketGroup.MarketData gives 10/);
  assert.throws(() => checkSearcherLayout(abi as never, { ...marketWords, QUOTER_WORD: 6 }), /QUOTER_WORD is 6, but IMarketGroup.MarketParams gives 7/);
  const { POOL_WORD: _, ...withoutPool } = marketWords;
  assert.throws(() => checkSearcherLayout(abi as never, withoutPool), /constant POOL_WORD not found/);
  const getMarket = abi.find((entry) => entry.name === "getMarket")!;
  getMarket.outputs![0]!.components!.splice(2, 1); // a field less before `settled`
  assert.throws(() => checkSearcherLayout(abi as never, marketWords), /MARKET_DATA_HEAD_WORDS is 15, but IMarketGroup.MarketData gives 14/);
});

test("the word offsets are read from the compiler's AST of MarketWords.sol, file-level constants in the order written; one not a plain number fails the build", () => {
  const constant = (name: string, value: { nodeType: string; kind?: string; value?: string }) => ({ nodeType: "VariableDeclaration", constant: true, name, value });
  const number = (value: string) => ({ nodeType: "Literal", kind: "number", value });
  const ast = { nodeType: "SourceUnit", nodes: [constant("B_WORD", number("2")), { nodeType: "FunctionDefinition", name: "wordAt" }, constant("A_WORD", number("10"))] };
  assert.deepEqual(Object.entries(searcherWords(ast)), [["B_WORD", 2], ["A_WORD", 10]]);
  const computed = { ...ast, nodes: [constant("C_WORD", { nodeType: "BinaryOperation" })] };
  assert.throws(() => searcherWords(computed), /constant C_WORD is not a plain number/);
  assert.throws(() => searcherWords({ ...ast, nodes: [constant("D_WORD", number("0x10"))] }), /constant D_WORD is not a plain number/);
});

test("the market group and its configuration module must share one storage layout: a slot more, moved or retyped in either fails the build", () => {
  const layout = [
    { label: "_owner", slot: "0", offset: 0, type: "t_address" },
    { label: "_lastMarketId", slot: "6", offset: 0, type: "t_uint256" },
  ];
  assert.doesNotThrow(() => checkSharedStorage([layout, layout.map((slot) => ({ ...slot }))]));
  assert.throws(() => checkSharedStorage([layout, [...layout, { label: "_extra", slot: "7", offset: 0, type: "t_uint256" }]]), /MarketConfigurationModule does not have MarketGroup's storage layout/);
  assert.throws(() => checkSharedStorage([layout, [layout[0]!, { ...layout[1]!, slot: "7" }]]), /storage layout/);
  assert.throws(() => checkSharedStorage([layout, undefined]), /no storage layout/);
});

test("a contract's code past EIP-170 (24,576 bytes) or creation code past EIP-3860 (49,152) fails the build; the market group is within both", () => {
  const artifact = (code: number, initcode: number) => ({ abi: [], evm: { deployedBytecode: { object: "00".repeat(code) }, bytecode: { object: "00".repeat(initcode) } } });
  assert.doesNotThrow(() => checkCodeSize("Fits", artifact(24_576, 49_152)));
  assert.throws(() => checkCodeSize("Large", artifact(24_577, 30_000)), /Large: 24577 bytes of code, past EIP-170's 24576/);
  assert.throws(() => checkCodeSize("Large", artifact(20_000, 49_153)), /past EIP-3860's 49152/);
  assert.ok((marketGroupBytecode.length - 2) / 2 <= 49_152, "the group's creation code, its module's and its token's included");
});
