// Reading a hand's result: which side a score line is for, what each seat was credited.
import type { HandResult, ScoreLine } from "../../typescript/src/index.js";

export type Side = { readonly side: "declarers" | "defenders" } | { readonly seats: readonly number[] };

/** Whom a score line is for: the seats it names, else the defenders when they made it
 * (`team: opponents`), else the declarer's side. */
export function lineSide(line: ScoreLine, result: HandResult): Side {
  if (line.seats.length > 0) {
    const team = new Set(result.team);
    if (result.declarer !== undefined && line.seats.every((s) => team.has(s))) return { side: "declarers" };
    if (result.declarer !== undefined && line.seats.every((s) => !team.has(s))) return { side: "defenders" };
    return { seats: line.seats };
  }
  return { side: line.params.team === "opponents" ? "defenders" : "declarers" };
}

/** What the hand credited each seat: the settled amounts (radelci and the zid included), or
 * the hand's own totals from servers that do not settle. */
export function credited(result: HandResult | undefined, players: number): bigint[] {
  const amounts = result?.settled?.amounts.length ? result.settled.amounts : result?.totals ?? [];
  return Array.from({ length: players }, (_, i) => amounts[i] ?? 0n);
}

/** How many cards the seat still has to lay away: its cards beyond what the others hold. */
export function cardsToDiscard(cards: number, handSizes: readonly number[], seat: number): number {
  const others = handSizes.filter((_, i) => i !== seat);
  return others.length === 0 ? 0 : Math.max(0, cards - Math.max(...others));
}
