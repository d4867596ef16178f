// A batch's answer as JSON: its block, then each result in the order asked, `{status, body}`, the body written as a
// GET of that quote writes it (the answer of the POST, and the data of each event of its stream). A depth ladder's
// likewise: each level the exact GET's 200 body, or its error body with its status first.
import type { BatchItem } from "../quote/batchRequest.ts";
import type { QuoteError } from "../quote/quoteErrors.ts";
import type { Result } from "../quote/result.ts";
import type { AnswerBody } from "../service/answerAtBlock.ts";
import type { BatchAnswer } from "../service/api.ts";
import type { DepthAnswer } from "../service/depthLadder.ts";
import { formatD18 } from "../quote/fixedPoint.ts";
import { errorWithStatus, toHttpError } from "./httpErrors.ts";

/** `items` as asked (a bad one is its own 400), the good ones answered in order by `batch`. */
export function batchJson(items: readonly BatchItem[], batch: BatchAnswer): string {
  let next = 0;
  const results = items.map((item) => resultJson(item.ok ? batch.answers[next++]! : item));
  return `{"blockNumber":"${batch.head.number}","blockHash":"${batch.head.hash}","results":[${results.join(",")}]}`;
}

/** One result as JSON: its status and the body a GET answers, as the GET's route writes it. */
function resultJson(answer: Result<AnswerBody, QuoteError> | { ok: false; error: QuoteError }): string {
  if (answer.ok) return `{"status":200,"body":${JSON.stringify(answer.value)}}`;
  const error = toHttpError(answer.error);
  return `{"status":${error.status},"body":${JSON.stringify(error.toBody())}}`;
}

/** The ladder: its market's direction and price, the budget, the block, then each level in order. */
export function depthJson(depth: DepthAnswer): string {
  const levels = depth.answers.map((answer) => JSON.stringify(answer.ok ? answer.value : errorWithStatus(answer.error)));
  return (
    `{"direction":"${depth.direction}","currentPrice":"${formatD18(depth.currentPrice)}","collateralAvailable":"${depth.collateralAvailable}",` +
    `"blockNumber":"${depth.head.number}","blockHash":"${depth.head.hash}","levels":[${levels.join(",")}]}`
  );
}
