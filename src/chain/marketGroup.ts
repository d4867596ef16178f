// The market group ABI the quoter speaks (semantics §1), taken from the contract build.
export { marketGroupAbi } from "../generated/contracts.ts";
