// Where a body stops being JSON: the spot a batch's 400 names. Checked against JSON.parse itself: the same texts
// are JSON, and where V8's message names a position, it is the same one.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { jsonBreak } from "../../src/quote/jsonSyntax.ts";

test("the line, the column and what could have come there, for the usual mistakes", () => {
  const cases: [string, { position: number; line: number; column: number }, RegExp][] = [
    ['{"quotes": [1,]}', { position: 14, line: 1, column: 15 }, /^a value/],
    ["{quotes: []}", { position: 1, line: 1, column: 2 }, /^a property name in double quotes$/],
    ['{"quotes": [\n  {"marketId": \'2\'}\n]}', { position: 28, line: 2, column: 16 }, /^a value/],
    ['{"quotes": [1 2]}', { position: 14, line: 1, column: 15 }, /^',' or '\]'$/],
    ['{"quotes" []}', { position: 10, line: 1, column: 11 }, /^':' after the property name$/],
    ['{"quotes": "a\nb"}', { position: 13, line: 1, column: 14 }, /^no control character/],
    ['{"quotes": tru', { position: 14, line: 1, column: 15 }, /^the rest of true$/],
    ['{"quotes": [', { position: 12, line: 1, column: 13 }, /^a value/],
    ['{"quotes": []} x', { position: 15, line: 1, column: 16 }, /^nothing after the JSON value$/],
    ["", { position: 0, line: 1, column: 1 }, /^a value/],
    ['"\\x"', { position: 2, line: 1, column: 3 }, /^an escape/],
    ["-.5", { position: 1, line: 1, column: 2 }, /^a digit$/],
  ];
  for (const [text, where, expected] of cases) {
    const broken = jsonBreak(text);
    assert.ok(broken !== undefined, text);
    assert.deepEqual({ position: broken.position, line: broken.line, column: broken.column }, where, text);
    assert.match(broken.expected, expected, text);
  }
});

test("property: JSON with a character added or removed breaks exactly where JSON.parse says, and only when it does", () => {
  const edits = fc.constantFrom("", ",", ":", "]", "}", "[", "{", '"', "\\", "u", "x", "1", "-", ".", "e", "\n", " ");
  fc.assert(
    fc.property(fc.jsonValue(), fc.nat(), edits, fc.boolean(), (value, at, added, remove) => {
      const json = JSON.stringify(value, null, 1);
      const i = at % (json.length + 1);
      const text = remove ? json.slice(0, i) + json.slice(i + 1) : json.slice(0, i) + added + json.slice(i);
      let parses = true;
      let position: number | undefined;
      try {
        JSON.parse(text);
      } catch (error) {
        parses = false;
        const named = /at position (\d+)/.exec((error as Error).message);
        if (named) position = Number(named[1]);
      }
      const broken = jsonBreak(text);
      assert.equal(broken === undefined, parses, text);
      if (position !== undefined) assert.equal(broken?.position, position, text);
    }),
    { numRuns: 3_000 },
  );
});
