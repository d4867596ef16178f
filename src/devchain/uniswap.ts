// Uniswap v3 core on the demo chain: the factory's published bytecode from the npm package @uniswap/v3-core
// (1.0.1, a runtime dependency), deployed as it is; its pools are what the factory creates. Read from the package
// at run time, so the artifacts stay in their own package beside its LICENSE (BUSL-1.1, whose change date has
// passed: GPL-2.0-or-later since 2023-04-01). Compiled by solc 0.7.6: no PUSH0, so Shanghai nodes run it too.
import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";

const PACKAGE = "@uniswap/v3-core";

export interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
  readonly deployedBytecode: Hex;
}

const load = (contract: "UniswapV3Factory" | "UniswapV3Pool"): Artifact => {
  const path = `${PACKAGE}/artifacts/contracts/${contract}.sol/${contract}.json`;
  try {
    return createRequire(import.meta.url)(path) as Artifact;
  } catch {
    throw new Error(`the demo chain needs the npm package ${PACKAGE} (its ${contract} artifact): run npm ci`);
  }
};

/** UniswapV3Factory: its creation code deploys the factory, whose createPool deploys UniswapV3Pool. */
export const uniswapV3Factory = (): Artifact => load("UniswapV3Factory");

/** UniswapV3Pool: the ABI to read a market's pool (slot0, ticks, liquidity), and its code to recognise one. */
export const uniswapV3Pool = (): Artifact => load("UniswapV3Pool");
