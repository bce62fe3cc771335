// Remote tournament bots: the turns an entrant's tokens give it, across all its tables.
import { errorInfo } from "./errors.js";
import type { TarokClient } from "./client.js";
import type { SubmitMoveResponse } from "./gen/tarok/v1/tarok_service_pb.js";
import type { MyTurn, StreamMyTurnsResponse } from "./gen/tarok/v1/tournament_service_pb.js";
import { newRequestId } from "./ids.js";
import { resuming } from "./stream.js";

/** Refusals that only mean the turn passed (timed out, or the table moved on). */
const LATE = new Set(["STALE_VERSION", "NOT_YOUR_TURN", "TABLE_FINISHED"]);

/** Each turn of the bot holding `tokens` (entrant tokens, or seat tokens of free tables), until
 * every table is over. The stream is reopened after a dropped connection and resumes after the
 * last turn this iterator has handed out (the server's `seen` map), so no turn comes twice. */
export async function* tournamentTurns(
  client: TarokClient,
  tokens: readonly string[],
  signal?: AbortSignal,
): AsyncGenerator<MyTurn> {
  const seen: Record<string, bigint> = {};
  const { idleTimeoutMs, retryForMs, onRetry } = client.options;
  const open = (s: AbortSignal): AsyncIterable<StreamMyTurnsResponse> =>
    client.tournaments.streamMyTurns({ tokens: [...tokens], seen: { ...seen } }, { signal: s });
  const isDone = (item: StreamMyTurnsResponse): boolean => item.item.case === "done";
  for await (const item of resuming(open, isDone, { idleTimeoutMs, retryForMs, onRetry, signal })) {
    if (item.item.case === "done") return;
    if (item.item.case !== "turn") continue;
    const turn = item.item.value;
    const version = turn.view?.version ?? 0n;
    if ((seen[turn.tableId] ?? -1n) >= version) continue;
    yield turn;
    seen[turn.tableId] = version;
  }
}

/** Make `moveId` for a turn from `tournamentTurns`: at the turn's version, with an
 * unpredictable request id kept for the retries. Undefined when the turn had already passed
 * (the clock ran out, or the table moved on). */
export async function playTurn(
  client: TarokClient,
  turn: MyTurn,
  moveId: string,
): Promise<SubmitMoveResponse | undefined> {
  const request = {
    token: turn.token,
    move: { case: "moveId" as const, value: moveId },
    expectedVersion: turn.view?.version,
    requestId: newRequestId(),
  };
  try {
    return await client.retrying((o) => client.raw.submitMove(request, o));
  } catch (err) {
    if (LATE.has(errorInfo(err).reason)) return undefined;
    throw err;
  }
}
