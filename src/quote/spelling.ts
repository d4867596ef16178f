// "Did you mean": a missing parameter that the request spells one edit away (or in another case). Unknown
// parameters are otherwise ignored (semantics §2); this only adds a hint to the detail of one that is missing.

/** ` (the request has "expectedprice": did you mean expectedPrice?)`, or "" when no given name is that close. */
export function didYouMean(name: string, given: readonly string[]): string {
  const close = given.filter((key) => key !== name && isOneEditAway(key.toLowerCase(), name.toLowerCase()));
  if (close.length === 0) return "";
  return ` (the request has ${close.map((key) => JSON.stringify(key)).join(", ")}: did you mean ${name}?)`;
}

/** Equal, or Levenshtein distance 1: one character inserted, deleted or replaced. */
export function isOneEditAway(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < shorter.length && shorter[i] === longer[i]) i++;
  // Past the first difference the rest must match: after a replacement (same length) or a skipped character.
  return shorter.length === longer.length ? shorter.slice(i + 1) === longer.slice(i + 1) : shorter.slice(i) === longer.slice(i + 1);
}
