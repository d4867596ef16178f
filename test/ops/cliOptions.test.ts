// `quoter quote`'s command line is the table of quote parameters: its positional arguments are the path's, its
// options the query's, and its help names each of them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { QUOTE_HELP } from "../../src/cli/help.ts";
import { POSITIONALS, QUOTE_OPTIONS, requestParams } from "../../src/cli/quoteOptions.ts";
import { QUOTE_PARAMS } from "../../src/quote/params.ts";

test("the positional arguments are the path parameters; every query parameter has an option, named in the help", () => {
  assert.equal(POSITIONALS, "<chainId> <marketAddress> <marketId>");
  for (const [name, param] of Object.entries(QUOTE_PARAMS)) {
    if (param.in === "path") continue;
    assert.ok(param.cli, `${name} has an option`);
    assert.ok(QUOTE_OPTIONS?.[param.cli.flag], `--${param.cli.flag} is an option`);
    assert.match(QUOTE_HELP, new RegExp(`--${param.cli.flag}\\b`), `the help names --${param.cli.flag}`);
  }
});

test("options become the API's query parameters: a repeated one stays repeated, a switch sends its text", () => {
  const { params, query } = requestParams(["31337", "0xabc", "2"], {
    "expected-price": ["1030"],
    collateral: ["1", "2"],
    "max-iterations": ["3"],
    trace: true,
    rpc: "http://x",
  });
  assert.deepEqual(params, { chainId: "31337", marketAddress: "0xabc", marketId: "2" });
  assert.deepEqual(query, { expectedPrice: "1030", collateralAvailable: ["1", "2"], maxIterations: "3", trace: "true" });
  assert.deepEqual(requestParams(["1", "2", "3"], { trace: false }).query, {});
});
