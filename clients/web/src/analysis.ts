// A finished hand's analysis (AnalyseHand: perfect play with every hand open after each card)
// as the replay shows it for one trick: what the side would end with after the trick, and what
// each card of the trick cost its player's side.
import type { AnalyseHandResponse } from "../../typescript/src/index.js";

export interface TrickAnalysis {
  /** The seats the values are for: the declarer side, or one player (klop). */
  readonly side: readonly number[];
  /** What the side ends the hand with under perfect play from after the trick's last card. */
  readonly value: number;
  /** The bar's full length: the most the side could reach at any point of the hand. */
  readonly top: number;
  /** False when a position of the trick was estimated, not solved to the end. */
  readonly exact: boolean;
  /** Per card code: what the card cost its player's side (0 for a best card). */
  readonly costs: ReadonlyMap<string, number>;
  /** "points" or "tricks" (beggar, valat). */
  readonly measure: string;
}

/** The analysis of the trick numbered `trick` (0 for the first); undefined if none. */
export function trickAnalysis(found: AnalyseHandResponse, trick: number): TrickAnalysis | undefined {
  const cards = found.cards.filter((c) => c.trick === trick);
  const last = cards[cards.length - 1];
  if (last === undefined) return undefined;
  const top = Math.max(0, ...found.cards.flatMap((c) => [c.value, c.best]));
  const costs = new Map(cards.map((c) => {
    const ours = c.side.includes(c.seat);
    return [c.card, Math.max(0, ours ? c.best - c.value : c.value - c.best)] as const;
  }));
  return { side: last.side, value: last.value, top, exact: cards.every((c) => c.exact), costs, measure: found.measure };
}

/** A value as the replay writes it: whole numbers plain, thirds and halves to one decimal. */
export function analysisNumber(value: number): string {
  return String(Math.round(value * 10) / 10);
}
