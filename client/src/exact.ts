// The one helper for reading an answer's numbers: amounts (wei, sizes, the block number) as bigint, prices as
// exact 18-decimal fixed point. The wire keeps them as decimal strings so that nothing is rounded on the way;
// this keeps them exact after it too: no Number, no float.

/** An exact decimal: `value / 10^decimals`. Prices are 18-decimal fixed point: `"1014.5"` is `{ value: 1014500000000000000000n, decimals: 18 }`. */
export interface Decimal {
  readonly value: bigint;
  readonly decimals: 18;
}

/** Fields holding an amount in wei (or a block number): decimal integers, signed for sizes. */
type AmountField =
  | "maxSize"
  | "collateralAvailable"
  | "requiredCollateral"
  | "maxCollateral"
  | "upperBound"
  | "size"
  | "blockNumber"
  | "liquidity"
  | "mintedLiquidity"
  | "amountBaseToken"
  | "amountQuoteToken";
/** Fields holding a price: decimals with at most 18 places. */
type PriceField = "currentPrice" | "expectedPrice" | "fillPrice" | "priceAfter" | "lowerPrice" | "upperPrice";

const AMOUNTS: ReadonlySet<string> = new Set<AmountField>([
  "maxSize",
  "collateralAvailable",
  "requiredCollateral",
  "maxCollateral",
  "upperBound",
  "size",
  "blockNumber",
  "liquidity",
  "mintedLiquidity",
  "amountBaseToken",
  "amountQuoteToken",
]);
const PRICES: ReadonlySet<string> = new Set<PriceField>(["currentPrice", "expectedPrice", "fillPrice", "priceAfter", "lowerPrice", "upperPrice"]);

type Converted<V, To> = V extends string ? To : V;

/** An answer with its amounts as bigint and its prices as {@link Decimal}; everything else as it was. */
export type Exact<T> = T extends readonly (infer Item)[]
  ? Exact<Item>[]
  : T extends object
    ? {
        [K in keyof T]: K extends "revertArgs"
          ? T[K]
          : K extends AmountField
            ? Converted<T[K], bigint>
            : K extends PriceField
              ? Converted<T[K], Decimal>
              : Exact<T[K]>;
      }
    : T;

/**
 * Any answer (a quote, a batch, a depth ladder, a liquidity quote, a live event's answer, an error body with its
 * trace) with its amounts (`maxSize`, `collateralAvailable`, `requiredCollateral`, `maxCollateral`, `upperBound`, a
 * trace's `size`, `blockNumber`; a liquidity quote's `liquidity`, `mintedLiquidity`, `amountBaseToken`,
 * `amountQuoteToken`) as `bigint` and its prices (`currentPrice`, `expectedPrice`, `fillPrice`, `priceAfter`,
 * `lowerPrice`, `upperPrice`) as
 * {@link Decimal}s of 18 places, exactly. A trace's `revertArgs` (the revert's raw arguments) stay strings.
 * Throws a RangeError on a number the service never sends (not a decimal, or a price with over 18 places).
 *
 * ```ts
 * const { maxSize, fillPrice } = exact(await client.quote(request));
 * // maxSize: -1998046875000000000000n; fillPrice: { value: 499294580392523114n, decimals: 18 } (0.499294580392523114)
 * ```
 */
export function exact<T extends object>(answer: T): Exact<T> {
  return convert(answer) as Exact<T>;
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      if (key === "revertArgs" || typeof field !== "string") return [key, key === "revertArgs" ? field : convert(field)];
      if (AMOUNTS.has(key)) return [key, amount(field)];
      if (PRICES.has(key)) return [key, price(field)];
      return [key, field];
    }),
  );
}

function amount(text: string): bigint {
  if (!/^-?\d+$/.test(text)) throw new RangeError(`not a decimal integer: ${JSON.stringify(text)}`);
  return BigInt(text);
}

function price(text: string): Decimal {
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text);
  if (match === null) throw new RangeError(`not a decimal of at most 18 places: ${JSON.stringify(text)}`);
  const [, whole, fraction = ""] = match;
  return { value: BigInt(whole!) * 10n ** 18n + BigInt(fraction.padEnd(18, "0")), decimals: 18 };
}
