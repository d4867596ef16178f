// A market group whose price feed is gone: getMarket answers, getReferencePrice returns 0. The only way to
// reach the interface's "Current price not found" row for real (contracts/test/PricelessMarketGroup.sol).
import type { Address } from "viem";
import { pricelessMarketGroupAbi, pricelessMarketGroupBytecode } from "../../src/generated/contracts.ts";
import type { EmbeddedChain } from "../../src/devchain/chain.ts";
import { DEMO_UNISWAP_FACTORY_ADDRESS } from "../../src/devchain/demo.ts";
import { minedReceipt } from "./receipts.ts";

/** On a demo chain (its Uniswap v3 factory creates the pool). The group's address, and the block its market was created in: a quote sees it with `minBlock` (semantics §11). */
export async function deployPricelessMarketGroup(chain: EmbeddedChain): Promise<{ address: Address; blockNumber: bigint }> {
  const { walletClient, publicClient } = chain;
  const deployed = await minedReceipt(
    publicClient,
    await walletClient.deployContract({ abi: pricelessMarketGroupAbi, bytecode: pricelessMarketGroupBytecode, args: [DEMO_UNISWAP_FACTORY_ADDRESS] }),
  );
  const address = deployed.contractAddress!;
  const { timestamp } = await publicClient.getBlock();
  const created = await minedReceipt(
    publicClient,
    await walletClient.writeContract({
      address,
      abi: pricelessMarketGroupAbi,
      functionName: "createMarket",
      args: [{
        startTime: timestamp - 60n,
        endTime: timestamp + 86_400n,
        priceD18: 5n * 10n ** 17n,
        minPriceD18: 10n ** 16n,
        maxPriceD18: 99n * 10n ** 16n,
        feeRate: 10_000,
        ranges: [{ minPriceD18: 10n ** 16n, maxPriceD18: 99n * 10n ** 16n, liquidity: 10n ** 24n }],
        claimStatementYesOrNumeric: "0x",
        claimStatementNo: "0x",
      }],
    }),
  );
  if (created.status !== "success") throw new Error("createMarket failed on the priceless market group");
  return { address, blockNumber: created.blockNumber };
}
