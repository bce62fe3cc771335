// A server stream that is reopened after a dropped connection, a silent connection or a server
// restart, resuming where the caller says (each open() builds its request afresh).
import { Code, ConnectError } from "@connectrpc/connect";
import { errorInfo, isTransient } from "./errors.js";
import { backoff, sleep } from "./retry.js";

export interface ResumeOptions {
  /** Reopen a stream that has received nothing for this long (milliseconds). */
  readonly idleTimeoutMs: number;
  /** Give up after failing for this long without receiving anything (milliseconds). */
  readonly retryForMs: number;
  readonly onRetry?: ((err: unknown, attempt: number) => void) | undefined;
  /** Stop (end the iteration quietly) when this aborts. */
  readonly signal?: AbortSignal | undefined;
}

/** Items of `open(signal)`, reopened until an item for which `last(item)` is true has been
 * seen and the server has ended that stream. */
export async function* resuming<T>(
  open: (signal: AbortSignal) => AsyncIterable<T>,
  last: (item: T) => boolean,
  options: ResumeOptions,
): AsyncGenerator<T> {
  let failingSince: number | undefined;
  let finished = false;
  for (let attempt = 1; ; attempt++) {
    const idle = new IdleAbort(options.idleTimeoutMs, options.signal);
    let failure: unknown;
    try {
      for await (const item of open(idle.signal)) {
        idle.touch();
        failingSince = undefined;
        finished ||= last(item);
        yield item;
      }
      if (finished) return;
      // The server ended the stream early (e.g. it is shutting down for a restart).
      failure = new ConnectError("the server ended the stream", Code.Unavailable);
    } catch (err) {
      if (options.signal?.aborted) return;
      if (!(idle.expired || isTransient(err) || isDroppedStream(err))) throw err;
      failure = err;
    } finally {
      idle.dispose();
    }
    failingSince ??= Date.now();
    if (Date.now() - failingSince > options.retryForMs) throw failure;
    options.onRetry?.(failure, attempt);
    try {
      await sleep(backoff(attempt), options.signal);
    } catch {
      return; // aborted while waiting
    }
  }
}

/** A call cut by the network or a server shutting down (not refused by the server): such
 * errors carry no ErrorInfo. */
export function isDroppedStream(err: unknown): boolean {
  const info = errorInfo(err);
  const cut = [Code.Internal, Code.Unknown, Code.Canceled].includes(info.code);
  return cut && info.reason === "";
}

/** An AbortSignal that fires when nothing has arrived for `ms`, or when `outer` aborts. */
class IdleAbort {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onOuter = (): void => this.controller.abort();
  expired = false;

  constructor(
    private readonly ms: number,
    private readonly outer: AbortSignal | undefined,
  ) {
    outer?.addEventListener("abort", this.onOuter);
    if (outer?.aborted) this.controller.abort();
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort();
    }, this.ms);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener("abort", this.onOuter);
  }
}
