// What the lobby's list shows of a table: a readable title, who sits where, whether it is stale.
import { t } from "./i18n.js";
import { seatNames } from "./names.js";

export interface ListedSeat {
  readonly seat: number;
  readonly name: string;
  readonly free: boolean;
  readonly bot: string;
}

export interface Listed {
  readonly tableId: string;
  readonly displayName: string;
  readonly seats: readonly ListedSeat[];
  readonly createdMs: number | undefined;
  readonly seating: boolean;
}

/** Open tables older than this are not shown (the server expires idle ones after a day). */
export const OPEN_FOR_MS = 6 * 3600_000;
/** Tables in play older than this are taken as abandoned. */
export const PLAYING_FOR_MS = 24 * 3600_000;

/** Whether a listed table is too old to offer: long open without players, or long in play. */
export function isStale(table: Listed, nowMs: number): boolean {
  if (table.createdMs === undefined) return false;
  return nowMs - table.createdMs > (table.seating ? OPEN_FOR_MS : PLAYING_FOR_MS);
}

/** The table's name, else "Ana's table" after its first person, else "<game> table". */
export function tableTitle(table: Listed, variant: string): string {
  if (table.displayName) return table.displayName;
  const person = table.seats.find((s) => !s.free && s.bot === "" && s.name !== "");
  return person !== undefined ? t("table_of", { name: person.name }) : t("game_table", { game: variant });
}

/** Each seat as the lobby shows it: "1 Ana", "2 Heuristic bot", "3 free". */
export function seatLines(seats: readonly ListedSeat[]): { seat: number; text: string; free: boolean }[] {
  const names = seatNames(seats.map((s) => ({ seat: s.seat, name: s.free ? "" : s.name, bot: s.bot })));
  return seats.map((s, i) => ({ seat: s.seat, free: s.free, text: s.free ? t("free_seat") : names[i] ?? "" }));
}
