// The committed src/generated/contracts.ts is what `npm run build:contracts` produces from contracts/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { camelName, compileContracts, GENERATED_FILE } from "../../scripts/build-contracts.ts";

test("src/generated/contracts.ts is not stale: compiling contracts/ again gives it byte for byte (run npm run build:contracts)", () => {
  assert.equal(compileContracts(), readFileSync(GENERATED_FILE, "utf8"));
});

test("generated names are the contract name in camel case: MarketGroup -> marketGroupAbi / marketGroupBytecode", () => {
  assert.equal(camelName("MarketGroup"), "marketGroup");
  assert.equal(camelName("ERC20Mock"), "erc20Mock");
  assert.equal(camelName("Searcher"), "searcher");
  assert.equal(camelName("A"), "a");
});
