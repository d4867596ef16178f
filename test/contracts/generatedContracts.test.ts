// The committed src/generated/contracts.ts is what `npm run build:contracts` produces from contracts/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { camelName, checkCodeSize, checkSearcherLayout, checkSharedStorage, compileContracts, GENERATED_FILE } from "../../scripts/build-contracts.ts";
import { marketGroupAbi, marketGroupBytecode } from "../../src/generated/contracts.ts";

test("src/generated/contracts.ts is not stale: compiling contracts/ again gives it byte for byte (run npm run build:contracts)", () => {
  assert.equal(compileContracts(), readFileSync(GENERATED_FILE, "utf8"));
});

test("generated names are the contract name in camel case: MarketGroup -> marketGroupAbi / marketGroupBytecode", () => {
  assert.equal(camelName("MarketGroup"), "marketGroup");
  assert.equal(camelName("ERC20Mock"), "erc20Mock");
  assert.equal(camelName("Searcher"), "searcher");
  assert.equal(camelName("A"), "a");
});

test("the searchers' word offsets into getMarket's answer (MarketWords.sol) are checked against the interface at build time", () => {
  const source = readFileSync(new URL("../../contracts/libraries/MarketWords.sol", import.meta.url), "utf8");
  const abi = JSON.parse(JSON.stringify(marketGroupAbi)) as { name?: string; outputs?: { components?: { name: string }[] }[] }[];
  assert.doesNotThrow(() => checkSearcherLayout(abi as never, source));
  assert.throws(() => checkSearcherLayout(abi as never, source.replace(/SETTLED_WORD = \d+;/, "SETTLED_WORD = 9;")), /SETTLED_WORD is 9, but IMarketGroup.MarketData gives 10/);
  assert.throws(() => checkSearcherLayout(abi as never, source.replace(/QUOTER_WORD = \d+;/, "QUOTER_WORD = 6;")), /QUOTER_WORD is 6, but IMarketGroup.MarketParams gives 7/);
  const getMarket = abi.find((entry) => entry.name === "getMarket")!;
  getMarket.outputs![0]!.components!.splice(2, 1); // a field less before `settled`
  assert.throws(() => checkSearcherLayout(abi as never, source), /MARKET_DATA_HEAD_WORDS is 15, but IMarketGroup.MarketData gives 14/);
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
