// Backoff and cancellable sleeps for retries and reconnects.

/** Exponential backoff with full jitter: up to 100 ms, 200 ms, ... capped at 5 s. */
export function backoff(attempt: number): number {
  const cap = Math.min(5_000, 100 * 2 ** Math.min(attempt - 1, 6));
  return Math.random() * cap;
}

/** Wait `ms` milliseconds; rejects early if `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
