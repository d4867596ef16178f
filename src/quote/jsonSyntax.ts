// Where a text stops being JSON (RFC 8259), and what was expected there: for a body that does not parse, a detail
// that points at the spot. JSON.parse says where only for some mistakes (not for an unexpected token, on Node 20 as
// on 22), so the text is read again here; it is read only once the parser has refused it.

/** The first character at which `text` cannot go on as JSON (its line and column from 1), and what could have. */
export type JsonBreak = { readonly position: number; readonly line: number; readonly column: number; readonly expected: string };

/** Where `text` breaks as JSON; undefined when it is one JSON value. */
export function jsonBreak(text: string): JsonBreak | undefined {
  const reader = new JsonReader(text);
  try {
    reader.document();
    return undefined;
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    const before = text.slice(0, error.position);
    const line = before.split("\n").length;
    return { position: error.position, line, column: error.position - before.lastIndexOf("\n"), expected: error.expected };
  }
}

class Broken {
  constructor(
    readonly position: number,
    readonly expected: string,
  ) {}
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const ESCAPED = '"\\/bfnrt';
const HEX_DIGIT = /^[0-9a-fA-F]$/;
const LITERALS = ["true", "false", "null"] as const;

/** Reads a text as JSON from its start, throwing Broken at the first character that cannot go on. */
class JsonReader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.space();
    if (this.at < this.text.length) this.fail("nothing after the JSON value");
  }

  private fail(expected: string): never {
    throw new Broken(this.at, expected);
  }

  /** The character at the reading position (a method: each call reads it anew). */
  private next(): string | undefined {
    return this.text[this.at];
  }

  private space(): void {
    while (" \t\n\r".includes(this.next() ?? "x")) this.at++;
  }

  private value(): void {
    this.space();
    const c = this.next();
    if (c === "{") return this.items("}", () => this.property());
    if (c === "[") return this.items("]", () => this.value());
    if (c === '"') return this.string();
    if (c === "-" || isDigit(c)) return this.number();
    const word = LITERALS.find((literal) => literal[0] === c);
    if (word === undefined) this.fail("a value (an object, an array, a string in double quotes, a number, true, false or null)");
    for (const letter of word) {
      if (this.next() !== letter) this.fail(`the rest of ${word}`);
      this.at++;
    }
  }

  /** An object's or an array's items, from its opening bracket to `close`. */
  private items(close: string, item: () => void): void {
    this.at++;
    this.space();
    if (this.next() === close) return void this.at++;
    for (;;) {
      item();
      this.space();
      if (this.next() === close) return void this.at++;
      if (this.next() !== ",") this.fail(`',' or '${close}'`);
      this.at++;
      this.space();
    }
  }

  private property(): void {
    if (this.next() !== '"') this.fail("a property name in double quotes");
    this.string();
    this.space();
    if (this.next() !== ":") this.fail("':' after the property name");
    this.at++;
    this.value();
  }

  private string(): void {
    this.at++;
    for (let c = this.next(); c !== '"'; c = this.next()) {
      if (c === undefined) this.fail('the string\'s closing "');
      if (c < " ") this.fail("no control character in a string (a line break is written \\n)");
      this.at++;
      if (c === "\\") this.escape();
    }
    this.at++;
  }

  /** What follows a backslash in a string. */
  private escape(): void {
    const c = this.next();
    if (c === "u") {
      const end = this.at + 5;
      for (this.at++; this.at < end; this.at++) if (!HEX_DIGIT.test(this.next() ?? "")) this.fail("4 hex digits after \\u");
    } else if (c !== undefined && ESCAPED.includes(c)) this.at++;
    else this.fail('an escape: \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and 4 hex digits');
  }

  private number(): void {
    if (this.next() === "-") this.at++;
    if (this.next() === "0") this.at++;
    else this.digits("a digit");
    if (this.next() === ".") {
      this.at++;
      this.digits("a digit after the decimal point");
    }
    if (this.next() === "e" || this.next() === "E") {
      this.at++;
      if (this.next() === "+" || this.next() === "-") this.at++;
      this.digits("a digit of the exponent");
    }
  }

  private digits(expected: string): void {
    if (!isDigit(this.next())) this.fail(expected);
    while (isDigit(this.next())) this.at++;
  }
}
