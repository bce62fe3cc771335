// Signed-in players: `authorization: Bearer` on every call (streams included), sessions that
// refresh themselves, and the options of matchmaking (see docs/identity.md, docs/players.md).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { DescMessage, DescMethodStreaming, DescMethodUnary, MessageInitShape } from "@bufbuild/protobuf";
import type { ContextValues, StreamResponse, Transport, UnaryResponse } from "@connectrpc/connect";
import type { Session } from "./gen/tarok/v1/player_service_pb.js";

/** A bearer token: fixed text, or asked for before each call (undefined: no header). */
export type Bearer = string | (() => string | undefined | Promise<string | undefined>);

/** The calls that sign in: they never carry a bearer token (an expired session sent along
 * would fail them). */
const SIGN_IN_CALLS = new Set(["SignInGuest", "SignIn", "RefreshSession"]);

/** Whether `method` (a PlayerService sign-in call or any other) should carry the bearer. */
export function carriesBearer(method: { readonly name: string; readonly parent: { readonly typeName: string } }): boolean {
  return !(method.parent.typeName === "tarok.v1.PlayerService" && SIGN_IN_CALLS.has(method.name));
}

type HeaderInit = Parameters<Transport["unary"]>[3];

/** `transport` with `authorization: Bearer <token>` added to every unary call and stream whose
 * caller set none; `token` is asked before each call. */
export function withBearer(
  transport: Transport,
  token: (method: { readonly name: string; readonly parent: { readonly typeName: string } }) => Promise<string | undefined>,
): Transport {
  const headers = async (
    method: { readonly name: string; readonly parent: { readonly typeName: string } },
    header: HeaderInit,
  ): Promise<Headers> => {
    const out = new Headers(header);
    if (!out.has("authorization") && carriesBearer(method)) {
      const value = await token(method);
      if (value) out.set("authorization", `Bearer ${value}`);
    }
    return out;
  };
  return {
    async unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: HeaderInit,
      input: MessageInitShape<I>,
      contextValues?: ContextValues,
    ): Promise<UnaryResponse<I, O>> {
      return transport.unary(method, signal, timeoutMs, await headers(method, header), input, contextValues);
    },
    async stream<I extends DescMessage, O extends DescMessage>(
      method: DescMethodStreaming<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: HeaderInit,
      input: AsyncIterable<MessageInitShape<I>>,
      contextValues?: ContextValues,
    ): Promise<StreamResponse<I, O>> {
      return transport.stream(method, signal, timeoutMs, await headers(method, header), input, contextValues);
    },
  };
}

/** When a session token or refresh token stops working, in ms since the epoch. */
export function sessionExpiry(session: Session): { session: number; refresh: number } {
  return {
    session: session.sessionExpires ? timestampDate(session.sessionExpires).getTime() : 0,
    refresh: session.refreshExpires ? timestampDate(session.refreshExpires).getTime() : 0,
  };
}

/** What a session needs to come back after a reload: its tokens and when they expire. */
export interface StoredSession {
  readonly playerId: string;
  readonly displayName: string;
  readonly guest: boolean;
  readonly sessionToken: string;
  readonly sessionExpires: number;
  readonly refreshToken: string;
  readonly refreshExpires: number;
}

export function storedSession(session: Session): StoredSession {
  const expires = sessionExpiry(session);
  return {
    playerId: session.player?.playerId ?? "",
    displayName: session.player?.displayName ?? "",
    guest: session.player?.guest ?? false,
    sessionToken: session.sessionToken,
    sessionExpires: expires.session,
    refreshToken: session.refreshToken,
    refreshExpires: expires.refresh,
  };
}

export interface FindMatchOptions {
  /** Rule set id, e.g. "slovenian". */
  readonly variant: string;
  readonly players: number;
  /** A rated table (only signed-in players and built-in bots; ratings change at its end). */
  readonly rated?: boolean;
  /** Rating ordinal points either side at first (0: any) and how much wider each second. */
  readonly ratingWindow?: number;
  readonly widenPerSecond?: number;
  /** Built-in bots may fill the free seats after this many ms (omitted: never). */
  readonly botsAfterMs?: number;
  /** Give up after this many ms (the server's default, 5 minutes, when omitted). */
  readonly maxWaitMs?: number;
  /** The name to sit down with. */
  readonly name?: string;
  /** Stop looking (leaves the queue). */
  readonly signal?: AbortSignal;
}
