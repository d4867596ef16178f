// Uniswap v3 on the demo chain: the factory's published bytecode from the npm package @uniswap/v3-core (1.0.1, a
// runtime dependency), deployed as it is; its pools are what the factory creates. And QuoterV2's, from
// @uniswap/v3-periphery (1.4.4, GPL-2.0-or-later), the quoter the markets' params name. Read from the packages at
// run time, so the artifacts stay in their own packages beside their licences (v3-core's BUSL-1.1, whose change date
// has passed: GPL-2.0-or-later since 2023-04-01). Compiled by solc 0.7.6: no PUSH0, so Shanghai nodes run them too.
import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";

const CORE = "@uniswap/v3-core";
const PERIPHERY = "@uniswap/v3-periphery";

export interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
  readonly deployedBytecode: Hex;
}

const load = (pkg: string, contract: string): Artifact => {
  const path = `${pkg}/artifacts/contracts/${contract}.sol/${contract.split("/").at(-1)}.json`;
  try {
    return createRequire(import.meta.url)(path) as Artifact;
  } catch {
    throw new Error(`the demo chain needs the npm package ${pkg} (its ${contract} artifact): run npm ci`);
  }
};

/** UniswapV3Factory: its creation code deploys the factory, whose createPool deploys UniswapV3Pool. */
export const uniswapV3Factory = (): Artifact => load(CORE, "UniswapV3Factory");

/** UniswapV3Pool: the ABI to read a market's pool (slot0, ticks, liquidity), and its code to recognise one. */
export const uniswapV3Pool = (): Artifact => load(CORE, "UniswapV3Pool");

/**
 * QuoterV2 (constructor: the factory, WETH9, which quoting never uses): a price-limited swap simulated on a pool of
 * that factory, found by its CREATE2 address (v3-core's published pool code, whose hash QuoterV2 holds).
 */
export const uniswapQuoterV2 = (): Artifact => load(PERIPHERY, "lens/QuoterV2");
