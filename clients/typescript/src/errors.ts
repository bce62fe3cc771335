// errorInfo(err): the stable reason of a failed call, read from its google.rpc.ErrorInfo.
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema, RetryInfoSchema } from "./gen/google/rpc/error_details_pb.js";

/** What a failed call says about itself. */
export interface TarokErrorInfo {
  /** The status code (Connect's `Code`, numbered as gRPC's status codes). */
  readonly code: Code;
  /** The code's name, e.g. "FailedPrecondition". */
  readonly codeName: string;
  /** The stable reason, e.g. "NOT_YOUR_TURN" ("" when the error carries no ErrorInfo). */
  readonly reason: string;
  /** The error domain ("tarok.v1" for the server's own errors). */
  readonly domain: string;
  /** Extra facts about the error (the offending field, the current version, ...). */
  readonly metadata: Readonly<Record<string, string>>;
  /** The server's message, without the code prefix Connect adds. */
  readonly message: string;
  /** How long the server asks the client to wait before retrying (RetryInfo), if it said. */
  readonly retryDelayMs: number | undefined;
}

/** The code, reason and metadata of any error thrown by a call (or by the SDK). */
export function errorInfo(err: unknown): TarokErrorInfo {
  const error = ConnectError.from(err);
  const info = error.findDetails(ErrorInfoSchema)[0];
  const retry = error.findDetails(RetryInfoSchema)[0];
  const delay = retry?.retryDelay;
  return {
    code: error.code,
    codeName: Code[error.code],
    reason: info?.reason ?? "",
    domain: info?.domain ?? "",
    metadata: { ...(info?.metadata ?? {}) },
    message: error.rawMessage,
    retryDelayMs:
      delay === undefined ? undefined : Number(delay.seconds) * 1000 + delay.nanos / 1e6,
  };
}

/** Codes after which the same request (with the same request id) may simply be sent again. */
export function isTransient(err: unknown): boolean {
  const code = ConnectError.from(err).code;
  return code === Code.Unavailable || code === Code.DeadlineExceeded;
}
