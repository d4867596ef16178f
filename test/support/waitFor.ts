/** Waits until `condition` holds, checking every 10 ms, for at most `ms`. */
export async function waitFor(condition: () => Promise<boolean> | boolean, ms = 5_000, what = "a condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
