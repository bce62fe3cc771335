// The SDK: a TarokClient over any Connect transport, and a TarokSeat holding one seat's token.
import { create } from "@bufbuild/protobuf";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import type { CallOptions, Client, Transport } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { DealSchema } from "./gen/tarok/v1/cards_pb.js";
import type { TableLog } from "./gen/tarok/v1/events_pb.js";
import {
  LogFormat,
  TableVisibility,
  TarokService,
  TimeoutAction,
} from "./gen/tarok/v1/tarok_service_pb.js";
import type {
  AnalyseHandResponse,
  JoinTableRequestSchema,
  SubmitMoveResponse,
  TableSummary,
  WatchTableResponse,
} from "./gen/tarok/v1/tarok_service_pb.js";
import { TournamentService } from "./gen/tarok/v1/tournament_service_pb.js";
import { MatchService } from "./gen/tarok/v1/match_service_pb.js";
import type {
  FindMatchResponse,
  GetProfileResponse,
  ListHistoryResponse,
  ListLeaderboardResponse,
  MatchFound,
  MatchWaiting,
} from "./gen/tarok/v1/match_service_pb.js";
import type { TablePlayed } from "./gen/tarok/v1/matches_pb.js";
import { PlayerService } from "./gen/tarok/v1/player_service_pb.js";
import type { MyTable, Player, Session } from "./gen/tarok/v1/player_service_pb.js";
import { sessionExpiry, withBearer } from "./players.js";
import type { Bearer, FindMatchOptions, StoredSession } from "./players.js";
import type { VariantInfo } from "./gen/tarok/v1/variants_pb.js";
import { TableStatus } from "./gen/tarok/v1/views_pb.js";
import type { TableView } from "./gen/tarok/v1/views_pb.js";
import { errorInfo, isTransient } from "./errors.js";
import { newRequestId } from "./ids.js";
import { backoff, sleep } from "./retry.js";
import { isDroppedStream, resuming } from "./stream.js";

/** An option value as the server reads it: text, or a number or boolean written as text. */
export type OptionValue = string | number | boolean;

export interface CreateTableOptions {
  /** Rule set id, e.g. "slovenian" (see `variants()`). */
  readonly variant: string;
  /** Number of players (one of the variant's player counts). */
  readonly players: number;
  /** Hands to play (default 1). */
  readonly hands?: number;
  /** Table options by name; omitted ones take the variant's defaults. */
  readonly options?: Readonly<Record<string, OptionValue>>;
  /** Explicit card orders, one per deal (card codes), for reproducible games. */
  readonly presetDeals?: readonly (readonly string[])[];
  /** The table's name in the lobby. */
  readonly displayName?: string;
  /** Private tables are not listed in the lobby (joined by id only). Default: public. */
  readonly private?: boolean;
  /** Seats the server plays itself with a built-in bot ("random", "heuristic", "pimc"). */
  readonly bots?: readonly { readonly seat: number; readonly bot: string }[];
  /** Time per move in milliseconds (omitted or 0: no clock). */
  readonly timePerMoveMs?: number;
  /** On a timeout a heuristic bot takes the seat, instead of the default move being played. */
  readonly botOnTimeout?: boolean;
  /** Idempotency key (a fresh unpredictable one is generated when omitted). */
  readonly requestId?: string;
}

export interface ListTablesOptions {
  /** Terms joined by AND: `variant = "slovenian"`, `players = 4`, `state = open`. */
  readonly filter?: string;
  /** Tables per page (the server's default when omitted). */
  readonly pageSize?: number;
}

export interface JoinOptions {
  /** Display name at the table. */
  readonly name?: string;
  /** The seat to take; omitted: the first free one. */
  readonly seat?: number;
  /** Idempotency key (a fresh unpredictable one is generated when omitted). */
  readonly requestId?: string;
}

export interface SubmitOptions {
  /** Make the move only if the table is still at this version (else ABORTED STALE_VERSION). */
  readonly expectedVersion?: bigint;
  /** Idempotency key; a fresh unpredictable one is generated and kept for the retries. */
  readonly requestId?: string;
  readonly signal?: AbortSignal;
}

export interface WatchOptions {
  /** Send the events after this version (0n: from the start). */
  readonly fromVersion?: bigint;
  /** Also send a fresh view after each batch of events (default true). */
  readonly withViews?: boolean;
  /** Stop watching when this signal aborts. */
  readonly signal?: AbortSignal;
}

export interface ClientOptions {
  /** Deadline of each unary call in milliseconds (default 30 s). */
  readonly timeoutMs?: number;
  /** How long to keep retrying a transient failure (UNAVAILABLE, dropped stream) before giving
   * up, in milliseconds (default 60 s). */
  readonly retryForMs?: number;
  /** Reconnect a watch that has received nothing (not even a heartbeat) for this long
   * (default 45 s; the server sends a heartbeat every 10 s by default). */
  readonly idleTimeoutMs?: number;
  /** Called before the SDK reconnects a dropped stream or retries a call. */
  readonly onRetry?: (err: unknown, attempt: number) => void;
  /** `authorization: Bearer` for every call (an API token, an identity provider's token, or a
   * function answering the current one). A session from `signInGuest`/`signIn`/`resume` is
   * used instead while there is one. */
  readonly bearer?: Bearer;
  /** Refresh a session this long before its token expires (default 60 s). */
  readonly refreshBeforeMs?: number;
  /** Called with each new session (sign-in or refresh), e.g. to keep it across reloads. */
  readonly onSession?: (session: Session) => void;
}

/** A connection to a tarok server over a Connect transport (Connect, gRPC-Web or gRPC). */
export class TarokClient {
  /** The generated Connect-ES client, for calls the SDK does not wrap. */
  readonly raw: Client<typeof TarokService>;
  /** The generated client of the TournamentService (see `tournamentTurns`). */
  readonly tournaments: Client<typeof TournamentService>;
  /** The generated client of the PlayerService (sign-in, API tokens, my tables). */
  readonly players: Client<typeof PlayerService>;
  /** The generated client of the MatchService (matchmaking, history, ratings). */
  readonly matches: Client<typeof MatchService>;
  readonly options: Required<Omit<ClientOptions, "onRetry" | "bearer" | "onSession">> &
    Pick<ClientOptions, "onRetry" | "bearer" | "onSession">;
  private current: { token: string; expires: number; refresh: string; refreshExpires: number } | undefined;
  private refreshing: Promise<string | undefined> | undefined;

  constructor(transport: Transport, options: ClientOptions = {}) {
    const authorized = withBearer(transport, () => this.bearerToken());
    this.raw = createClient(TarokService, authorized);
    this.tournaments = createClient(TournamentService, authorized);
    this.players = createClient(PlayerService, authorized);
    this.matches = createClient(MatchService, authorized);
    this.options = {
      timeoutMs: options.timeoutMs ?? 30_000,
      retryForMs: options.retryForMs ?? 60_000,
      idleTimeoutMs: options.idleTimeoutMs ?? 45_000,
      refreshBeforeMs: options.refreshBeforeMs ?? 60_000,
      onRetry: options.onRetry,
      bearer: options.bearer,
      onSession: options.onSession,
    };
  }

  /** The token sent as `authorization: Bearer`: the session's (refreshed first when it is
   * about to expire), else the `bearer` option's, else none. */
  async bearerToken(): Promise<string | undefined> {
    const session = this.current;
    if (session !== undefined) {
      const now = Date.now();
      if (session.expires - now > this.options.refreshBeforeMs || session.refreshExpires <= now) return session.token;
      this.refreshing ??= this.players.refreshSession({ refreshToken: session.refresh }, { timeoutMs: this.options.timeoutMs }).then(
        (answer) => {
          // signed out (or in as someone else) meanwhile: the new session is not used
          if (this.current !== session || answer.session === undefined) return this.current?.token;
          this.useSession(answer.session);
          return answer.session.sessionToken;
        },
        () => session.token, // the server's answer to the old token says what is wrong
      ).finally(() => {
        this.refreshing = undefined;
      });
      return this.refreshing;
    }
    const bearer = this.options.bearer;
    return typeof bearer === "function" ? bearer() : bearer;
  }

  /** Use `session` for every later call (and refresh it before it expires). */
  useSession(session: Session | undefined): void {
    if (session === undefined) {
      this.current = undefined;
      return;
    }
    const expires = sessionExpiry(session);
    this.current = {
      token: session.sessionToken,
      expires: expires.session,
      refresh: session.refreshToken,
      refreshExpires: expires.refresh,
    };
    this.options.onSession?.(session);
  }

  /** Go on with a session kept from before (e.g. across a page reload): its token while it
   * lasts, then its refresh token. */
  resume(stored: StoredSession): void {
    this.current = {
      token: stored.sessionToken,
      expires: stored.sessionExpires,
      refresh: stored.refreshToken,
      refreshExpires: stored.refreshExpires,
    };
  }

  /** Sign out of this client's session (the tokens expire on their own). */
  signOut(): void {
    this.current = undefined;
  }

  /** Whether calls go out signed in (a session, or a `bearer` option). */
  get signedIn(): boolean {
    return this.current !== undefined || this.options.bearer !== undefined;
  }

  /** Sign in as the guest whose device keeps `deviceSecret` (22 to 128 printable ASCII
   * characters; the first call creates the player). The session is used from now on. */
  async signInGuest(deviceSecret: string, displayName = "", locale = ""): Promise<Session> {
    const response = await this.retrying((o) => this.players.signInGuest({ deviceSecret, displayName, locale }, o));
    return this.started(response.session);
  }

  /** Sign in with an identity provider's access or ID token (a session of this server). */
  async signIn(idToken: string, displayName = "", locale = ""): Promise<Session> {
    const response = await this.retrying((o) => this.players.signIn({ idToken, displayName, locale }, o));
    return this.started(response.session);
  }

  /** A new session for a refresh token (e.g. one kept across a page reload). */
  async refreshSession(refreshToken: string): Promise<Session> {
    const response = await this.retrying((o) => this.players.refreshSession({ refreshToken }, o));
    return this.started(response.session);
  }

  private started(session: Session | undefined): Session {
    if (session === undefined) throw new ConnectError("no session in the answer", Code.Internal);
    this.useSession(session);
    return session;
  }

  /** The signed-in caller's player. */
  async me(): Promise<Player> {
    const response = await this.retrying((o) => this.players.getMe({}, o));
    if (response.player === undefined) throw new ConnectError("no player in the answer", Code.Internal);
    return response.player;
  }

  /** Link an identity provider's account to the signed-in player (a guest keeps its history). */
  async linkIdentity(idToken: string): Promise<Player> {
    const response = await this.retrying((o) => this.players.linkIdentity({ idToken }, o));
    if (response.player === undefined) throw new ConnectError("no player in the answer", Code.Internal);
    return response.player;
  }

  /** The unfinished tables where the signed-in player holds a seat. */
  async myTables(): Promise<MyTable[]> {
    return (await this.retrying((o) => this.players.listMyTables({}, o))).tables;
  }

  /** The signed-in player's seat at `tableId` from any device (a fresh seat token). */
  async rejoinMine(tableId: string, name = ""): Promise<TarokSeat> {
    const response = await this.retrying((o) => this.raw.rejoinTable({ tableId, name }, o));
    return new TarokSeat(this, response.tableId, response.token, response.seat);
  }

  /** Matchmaking: `waiting` reports, then the seat found (the stream then ends). Aborting
   * `options.signal` leaves the queue. */
  async *findMatch(options: FindMatchOptions): AsyncGenerator<FindMatchResponse> {
    const request = {
      variant: options.variant,
      players: options.players,
      rated: options.rated ?? false,
      ratingWindow: options.ratingWindow ?? 0,
      windowWidenPerSecond: options.widenPerSecond ?? 0,
      botsAfter: options.botsAfterMs === undefined ? undefined : durationFromMs(options.botsAfterMs),
      maxWait: options.maxWaitMs === undefined ? undefined : durationFromMs(options.maxWaitMs),
      name: options.name ?? "",
    };
    yield* this.matches.findMatch(request, { signal: options.signal });
  }

  /** Matchmaking to the end: the seat at the table made (`onWaiting` sees the progress). */
  async playNow(options: FindMatchOptions, onWaiting?: (waiting: MatchWaiting) => void): Promise<{ seat: TarokSeat; found: MatchFound }> {
    for await (const item of this.findMatch(options)) {
      if (item.item.case === "waiting") onWaiting?.(item.item.value);
      if (item.item.case === "found") {
        const found = item.item.value;
        return { seat: new TarokSeat(this, found.tableId, found.token, found.seat), found };
      }
    }
    throw new ConnectError("matchmaking ended without a seat", Code.Aborted);
  }

  /** One page of the signed-in player's finished tables, newest first. */
  async historyPage(pageSize = 0, pageToken = ""): Promise<ListHistoryResponse> {
    return this.retrying((o) => this.matches.listHistory({ pageSize, pageToken }, o));
  }

  /** Every finished table of the signed-in player, newest first, page by page. */
  async *history(pageSize = 0): AsyncGenerator<TablePlayed> {
    let pageToken = "";
    do {
      const page = await this.historyPage(pageSize, pageToken);
      yield* page.tables;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /** The signed-in player's profile: tables played per variant and the ratings. */
  async profile(): Promise<GetProfileResponse> {
    return this.retrying((o) => this.matches.getProfile({}, o));
  }

  /** One page of a variant's leaderboard (no sign-in needed). */
  async leaderboard(variant: string, players: number, pageSize = 0, pageToken = ""): Promise<ListLeaderboardResponse> {
    return this.retrying((o) => this.matches.listLeaderboard({ variant, players, pageSize, pageToken }, o));
  }

  /** A finished table of the signed-in player's history, as a spectator (its `log()` is whole). */
  async openPlayedTable(tableId: string): Promise<TarokSeat> {
    const response = await this.retrying((o) => this.matches.openPlayedTable({ tableId }, o));
    return new TarokSeat(this, tableId, response.token, undefined);
  }

  /** Run a call, retrying transient failures (UNAVAILABLE, a dropped connection) with the same
   * request, so with the same request id: the server answers a repeat with the first answer. */
  async retrying<T>(call: (options: CallOptions) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await call({ timeoutMs: this.options.timeoutMs, signal });
      } catch (err) {
        const retry = isTransient(err) || (isDroppedStream(err) && !signal?.aborted);
        if (!retry || Date.now() - started > this.options.retryForMs) throw err;
        this.options.onRetry?.(err, attempt);
        await sleep(errorInfo(err).retryDelayMs ?? backoff(attempt), signal);
      }
    }
  }

  async ping(payload: Uint8Array = new Uint8Array()): Promise<Uint8Array> {
    const response = await this.retrying((o) => this.raw.ping({ payload }, o));
    return response.payload;
  }

  /** The rule sets the server hosts. */
  async variants(): Promise<VariantInfo[]> {
    const response = await this.retrying((o) => this.raw.listVariants({}, o));
    return response.variants;
  }

  /** Create a table; returns its id. */
  async createTable(table: CreateTableOptions): Promise<string> {
    const options: Record<string, string> = {};
    for (const [name, value] of Object.entries(table.options ?? {})) options[name] = String(value);
    const requestId = table.requestId ?? newRequestId();
    const response = await this.retrying((o) =>
      this.raw.createTable(
        {
          variant: table.variant,
          players: table.players,
          hands: table.hands ?? 1,
          options,
          presetDeals: (table.presetDeals ?? []).map((cards) =>
            create(DealSchema, { cards: [...cards] }),
          ),
          displayName: table.displayName ?? "",
          visibility: table.private ? TableVisibility.PRIVATE : TableVisibility.PUBLIC,
          bots: (table.bots ?? []).map((b) => ({ seat: b.seat, bot: b.bot })),
          timePerMove: table.timePerMoveMs ? durationFromMs(table.timePerMoveMs) : undefined,
          onTimeout: table.botOnTimeout ? TimeoutAction.BOT : TimeoutAction.DEFAULT_MOVE,
          requestId,
        },
        o,
      ),
    );
    return response.tableId;
  }

  /** The lobby: public tables matching `filter`, oldest first, every page in turn. */
  async *tables(options: ListTablesOptions = {}): AsyncGenerator<TableSummary> {
    let pageToken = "";
    do {
      const request = { filter: options.filter ?? "", pageSize: options.pageSize ?? 0, pageToken };
      const page = await this.retrying((o) => this.raw.listTables(request, o));
      yield* page.tables;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /** Take a seat (the first free one unless `seat` is given). */
  async join(tableId: string, join: JoinOptions = {}): Promise<TarokSeat> {
    return this.seatFrom({
      tableId,
      name: join.name ?? "",
      seat: join.seat,
      requestId: join.requestId ?? newRequestId(),
    });
  }

  /** Watch a table as a spectator (public information only; no moves). */
  async spectate(tableId: string): Promise<TarokSeat> {
    return this.seatFrom({ tableId, spectator: true, requestId: newRequestId() });
  }

  /** A handle for a seat whose token you already hold (e.g. kept across a page reload). */
  seatWithToken(tableId: string, token: string, seat: number | undefined): TarokSeat {
    return new TarokSeat(this, tableId, token, seat);
  }

  private async seatFrom(request: MessageInitShape<typeof JoinTableRequestSchema>): Promise<TarokSeat> {
    const response = await this.retrying((o) => this.raw.joinTable(request, o));
    return new TarokSeat(this, response.tableId, response.token, response.seat);
  }
}

/** One seat (or a spectator) at a table, holding its token. */
export class TarokSeat {
  constructor(
    readonly client: TarokClient,
    readonly tableId: string,
    readonly token: string,
    /** The seat number; undefined for a spectator. */
    readonly seat: number | undefined,
  ) {}

  /** The table as this seat sees it now. */
  async view(): Promise<TableView> {
    const response = await this.client.retrying((o) =>
      this.client.raw.getTableView({ token: this.token }, o),
    );
    if (response.view === undefined) throw new ConnectError("no view in the answer", Code.Internal);
    return response.view;
  }

  /** Make a move by its id. One request id is used for every retry, so a retried move that
   * already reached the server is not made twice. */
  async submit(moveId: string, options: SubmitOptions = {}): Promise<SubmitMoveResponse> {
    const request = {
      token: this.token,
      move: { case: "moveId" as const, value: moveId },
      expectedVersion: options.expectedVersion,
      requestId: options.requestId ?? newRequestId(),
    };
    return this.client.retrying((o) => this.client.raw.submitMove(request, o), options.signal);
  }

  /** A full view, then every event after `fromVersion`, then live events and heartbeats.
   * A dropped stream is reopened from the last event received, so no event is lost or
   * repeated; each reconnect starts with a fresh view. Ends once the table has finished. */
  async *watch(options: WatchOptions = {}): AsyncGenerator<WatchTableResponse> {
    const { idleTimeoutMs, retryForMs, onRetry } = this.client.options;
    let from = options.fromVersion ?? 0n;
    const open = (signal: AbortSignal): AsyncIterable<WatchTableResponse> =>
      this.client.raw.watchTable(
        { token: this.token, fromVersion: from, withViews: options.withViews ?? true },
        { signal },
      );
    const resume = { idleTimeoutMs, retryForMs, onRetry, signal: options.signal };
    for await (const item of resuming(open, isFinished, resume)) {
      if (item.item.case === "event" && item.item.value.version > from) {
        from = item.item.value.version;
      }
      yield item;
    }
  }

  /** Each view in which it is this seat's turn (once per table version), until the table
   * finishes. Survives dropped connections and server restarts (see `watch`). */
  async *myTurns(signal?: AbortSignal): AsyncGenerator<TableView> {
    let last = -1n;
    for await (const item of this.watch({ withViews: true, signal })) {
      if (item.item.case !== "view") continue;
      const view = item.item.value;
      if (view.status === TableStatus.FINISHED) return;
      const turn = view.hand?.turn;
      if (view.status === TableStatus.PLAYING && turn === this.seat && view.version > last) {
        last = view.version;
        yield view;
      }
    }
  }

  /** Give up the seat before play starts (the seat is freed; `rejoin()` takes it back). */
  async leave(): Promise<bigint> {
    const response = await this.client.retrying((o) =>
      this.client.raw.leaveTable({ token: this.token }, o),
    );
    return response.version;
  }

  /** Take this seat back (after `leave()`, after a reload, or from the bot that took it on a
   * timeout). Returns the seat with its fresh token; this handle's token stops working. */
  async rejoin(name = ""): Promise<TarokSeat> {
    const response = await this.client.retrying((o) =>
      this.client.raw.rejoinTable({ token: this.token, name }, o),
    );
    return new TarokSeat(this.client, response.tableId, response.token, response.seat);
  }

  /** After the match: the same seat at a new table with the same options and bots (the first
   * of the players to ask creates it; the others join it). */
  async rematch(): Promise<TarokSeat> {
    const response = await this.client.retrying((o) =>
      this.client.raw.rematch({ token: this.token }, o),
    );
    return new TarokSeat(this.client, response.tableId, response.token, response.seat);
  }

  /** The table's log as this seat may see it (complete once the table has finished). */
  async log(): Promise<TableLog> {
    const response = await this.client.retrying((o) =>
      this.client.raw.getTableLog({ token: this.token, format: LogFormat.PROTO }, o),
    );
    if (response.log === undefined) throw new ConnectError("no log in the answer", Code.Internal);
    return response.log;
  }

  /** A hand of the finished table analysed by perfect play (every hand open): after each card
   * played, what its side would end with. `dealNumber` 1 for the first hand, 0 for the last. */
  async analyse(dealNumber = 0): Promise<AnalyseHandResponse> {
    return this.client.retrying((o) =>
      this.client.raw.analyseHand({ token: this.token, dealNumber }, o),
    );
  }
}

/** Whether a watch item shows the table finished (the server then ends the stream). */
function isFinished(item: WatchTableResponse): boolean {
  const { case: kind, value } = item.item;
  return (
    (kind === "event" && value.body.case === "tableClosed") ||
    (kind === "view" && value.status === TableStatus.FINISHED)
  );
}
