// Where a text stops being JSON (RFC 8259), and what was expected there: for a body that does not parse, a detail
// that points at the spot. JSON.parse says where only for some mistakes (not for an unexpected token, on Node 20 as
// on 22), so the text is read again here; it is read only once the parser has refused it.

/** The first character at which `text` cannot go on as JSON (its line and column from 1), and what could have. */
export type JsonBreak = { readonly position: number; readonly line: number; readonly column: number; readonly expected: string };

class Broken {
  constructor(
    readonly position: number,
    readonly expected: string,
  ) {}
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const ESCAPED = '"\\/bfnrt';
const HEX_DIGIT = /^[0-9a-fA-F]$/;

/** Where `text` breaks as JSON; undefined when it is one JSON value. */
export function jsonBreak(text: string): JsonBreak | undefined {
  let at = 0;
  // Typed where it is declared, so that the compiler knows no code runs past a call.
  const fail: (expected: string) => never = (expected) => {
    throw new Broken(at, expected);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const string = () => {
    at++;
    for (;;) {
      const c = text[at];
      if (c === undefined) fail('the string\'s closing "');
      if (c === '"') return void at++;
      if (c < " ") fail("no control character in a string (a line break is written \\n)");
      if (c !== "\\") {
        at++;
        continue;
      }
      const escaped = text[++at];
      if (escaped === "u") {
        const hexEnd = at + 5;
        for (at++; at < hexEnd; at++) if (!HEX_DIGIT.test(text[at] ?? "")) fail("4 hex digits after \\u");
      } else if (escaped !== undefined && ESCAPED.includes(escaped)) at++;
      else fail('an escape: \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and 4 hex digits');
    }
  };
  const items = (close: string, item: () => void) => {
    at++;
    space();
    if (text[at] === close) return void at++;
    for (;;) {
      item();
      space();
      if (text[at] === close) return void at++;
      if (text[at] !== ",") fail(`',' or '${close}'`);
      at++;
      space();
    }
  };
  const value = (): void => {
    space();
    const c = text[at];
    if (c === "{") {
      return items("}", () => {
        if (text[at] !== '"') fail('a property name in double quotes');
        string();
        space();
        if (text[at] !== ":") fail("':' after the property name");
        at++;
        value();
      });
    }
    if (c === "[") return items("]", value);
    if (c === '"') return string();
    if (c === "-" || isDigit(c)) return number();
    const word = ["true", "false", "null"].find((literal) => literal[0] === c);
    if (word === undefined) fail("a value (an object, an array, a string in double quotes, a number, true, false or null)");
    for (const letter of word!) {
      if (text[at] !== letter) fail(`the rest of ${word}`);
      at++;
    }
  };
  const digits = (what: string) => {
    if (!isDigit(text[at])) fail(what);
    while (isDigit(text[at])) at++;
  };
  const number = () => {
    if (text[at] === "-") at++;
    if (text[at] === "0") at++;
    else digits("a digit");
    if (text[at] === ".") {
      at++;
      digits("a digit after the decimal point");
    }
    if (text[at] === "e" || text[at] === "E") {
      at++;
      if (text[at] === "+" || text[at] === "-") at++;
      digits("a digit of the exponent");
    }
  };
  try {
    value();
    space();
    if (at < text.length) fail("nothing after the JSON value");
    return undefined;
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    const before = text.slice(0, error.position);
    const line = before.split("\n").length;
    return { position: error.position, line, column: error.position - before.lastIndexOf("\n"), expected: error.expected };
  }
}
