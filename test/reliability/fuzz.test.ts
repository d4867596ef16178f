// Fuzz: 5,000 generated paths and query strings (huge numbers, signs, exponents, unicode, bad
// percent-encoding, duplicates, empty values). Every answer is a 4xx in the JSON error shape or a 200 that
// verifies against the chain; never a 5xx; the process keeps answering.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { startQuoterHarness, type QuoterHarness } from "../support/quoterHarness.ts";
import { verifyAnswer } from "../support/verify.ts";

let h: QuoterHarness;
before(async () => {
  h = await startQuoterHarness();
});
after(() => h.close());

const ugly = fc.constantFrom(
  "", "-", "+1", "0", "00", "-0", "1e", "1e+", "e5", ".", "..", "1..2", "0x1f", "1_000", "1,5", " 1", "1 ", "%20", "%", "%%",
  "%zz", "%E0%A4%A", "%C0%AF", "%FF", "%00", "NaN", "Infinity", "-Infinity", "null", "undefined", "true", "[]", "{}",
  "１", "٣", "💥", "\u202e1", "1e999999999", "1e-999999999", "9".repeat(80), "9".repeat(101), `0.${"0".repeat(17)}1`,
  `0.${"0".repeat(18)}1`, "115792089237316195423570985008687907853269984665640564039457584007913129639936",
);
const number = fc.oneof(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.tuple(fc.nat(99), fc.nat(999), fc.integer({ min: -40, max: 40 })).map(([a, b, e]) => `${a}.${b}e${e}`),
  fc.tuple(fc.nat(9), fc.nat(10 ** 6)).map(([a, b]) => `${a}.${b}`),
);
const value = fc.oneof({ weight: 3, arbitrary: number }, { weight: 2, arbitrary: ugly }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }).map(encodeURIComponent) });
const segment = (valid: string) => fc.oneof({ weight: 3, arbitrary: fc.constant(valid) }, { weight: 2, arbitrary: value });
const param = fc.tuple(
  fc.constantFrom("expectedPrice", "collateralAvailable", "maxIterations", "priceLimit", "trace", "other", "", "expectedPrice[]", "%E0"),
  value,
);

const requestArbitrary = (marketGroup: string) => fc
  .record({
    chainId: segment("31337"),
    address: segment(marketGroup),
    marketId: segment("1"),
    params: fc.array(param, { maxLength: 7 }),
    base: fc.boolean(),
    slash: fc.boolean(),
  })
  .map(({ chainId, address, marketId, params, base, slash }) => {
    const all = base ? [["expectedPrice", "0.55"], ["collateralAvailable", "1000000000000000000"], ...params] : params;
    const query = all.map(([k, v]) => (v === "" ? k! : `${k}=${v}`)).join("&");
    return { url: `/quoter/${chainId}/${address}/${marketId}${slash ? "/" : ""}?${query}`, marketId };
  });

test("5,000 generated requests: never a 5xx, always the JSON error shape or a verified 200", async () => {
  const counts = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(requestArbitrary(h.devchain.marketGroup), async ({ url, marketId }) => {
      const response = await h.app.inject({ method: "GET", url });
      counts.set(response.statusCode, (counts.get(response.statusCode) ?? 0) + 1);
      assert.ok(response.statusCode < 500, `${url} -> ${response.statusCode} ${response.body}`);
      const body = response.json();
      if (response.statusCode === 200) {
        const query = new URL(url, "http://x").searchParams;
        await verifyAnswer(h.devchain.chain, h.devchain.marketGroup, BigInt(marketId), {
          expectedPrice: body.expectedPrice,
          collateralAvailable: body.collateralAvailable,
          priceLimit: query.get("priceLimit") ?? undefined,
          maxIterations: query.get("maxIterations") ?? undefined,
        }, body);
      } else {
        assert.ok(response.statusCode >= 400, `${url} -> ${response.statusCode}`);
        assert.equal(typeof body.error, "string", url);
        if (body.details !== undefined) {
          assert.ok(Array.isArray(body.details));
          for (const detail of body.details) assert.deepEqual(Object.keys(detail).sort(), ["message", "param"]);
        }
      }
    }),
    { numRuns: 5_000, seed: 6 },
  );
  assert.ok((counts.get(400) ?? 0) > 1_000, JSON.stringify([...counts]));
  assert.ok((counts.get(200) ?? 0) > 20, `some generated requests are valid quotes: ${JSON.stringify([...counts])}`);
  const after = await h.get(h.quotePath(1, { expectedPrice: "0.55", collateralAvailable: "1000000000000000000" }));
  assert.equal(after.status, 200, "still answering");
});
