// @tarok/client: the generated protocol types plus a small SDK (see README.md).
export { TarokClient, TarokSeat } from "./client.js";
export type {
  ClientOptions,
  CreateTableOptions,
  JoinOptions,
  ListTablesOptions,
  OptionValue,
  SubmitOptions,
  WatchOptions,
} from "./client.js";
export { errorInfo, isTransient } from "./errors.js";
export type { TarokErrorInfo } from "./errors.js";
export { newRequestId } from "./ids.js";
export { carriesBearer, sessionExpiry, storedSession, withBearer } from "./players.js";
export type { Bearer, FindMatchOptions, StoredSession } from "./players.js";
export { playTurn, tournamentTurns } from "./tournaments.js";
export { Code, ConnectError } from "@connectrpc/connect";
export * from "./gen/tarok/v1/cards_pb.js";
export * from "./gen/tarok/v1/events_pb.js";
export * from "./gen/tarok/v1/match_service_pb.js";
export * from "./gen/tarok/v1/matches_pb.js";
export * from "./gen/tarok/v1/moves_pb.js";
export * from "./gen/tarok/v1/player_service_pb.js";
export * from "./gen/tarok/v1/players_pb.js";
export * from "./gen/tarok/v1/results_pb.js";
export * from "./gen/tarok/v1/tarok_service_pb.js";
export * from "./gen/tarok/v1/tournament_service_pb.js";
export * from "./gen/tarok/v1/tournaments_pb.js";
export * from "./gen/tarok/v1/variants_pb.js";
export * from "./gen/tarok/v1/views_pb.js";
