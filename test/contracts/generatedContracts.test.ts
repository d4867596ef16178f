// The committed src/generated/contracts.ts is what `npm run build:contracts` produces from contracts/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { camelName, checkSearcherLayout, compileContracts, GENERATED_FILE } from "../../scripts/build-contracts.ts";
import { marketGroupAbi } from "../../src/generated/contracts.ts";

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
