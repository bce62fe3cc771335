// A finished table's log cut into the moments a replay steps through: each deal, each move
// of the auction (bids, calls, talon, discards, announcements), each completed trick, and
// each hand's score.
import type { Card, Event, HandScored, MoveMade } from "../../typescript/src/index.js";

export interface Seated {
  readonly seat: number;
  readonly name: string;
  readonly bot: string;
}

export interface Moment {
  /** 0-based hand (deal) of the match. */
  readonly hand: number;
  readonly kind: "deal" | "move" | "trick" | "scored";
  /** The dealt cards per seat and the talon (deal moments of complete logs). */
  readonly dealt: readonly (readonly Card[])[];
  readonly talon: readonly Card[];
  readonly dealer: number;
  /** The auction's moves of this hand up to this moment (the last is this one, for "move"). */
  readonly auction: readonly MoveMade[];
  /** The trick's plays (trick moments), its 1-based number and its winner when known. */
  readonly plays: readonly MoveMade[];
  readonly trick: number;
  readonly winner: number | undefined;
  readonly scored: HandScored | undefined;
}

export interface Replay {
  readonly seats: readonly Seated[];
  readonly moments: readonly Moment[];
  readonly hands: number;
}

/** The moments of a log; `players` cards make a trick. */
export function replayOf(events: readonly Event[], players: number): Replay {
  const seats: Seated[] = [];
  const moments: Moment[] = [];
  let base: Omit<Moment, "kind" | "auction" | "plays" | "trick" | "winner" | "scored"> | undefined;
  let auction: MoveMade[] = [];
  let plays: MoveMade[] = [];
  let tricks: Moment[] = [];
  let hand = -1;
  const closeTrick = (winner: number | undefined): void => {
    const last = tricks.at(-1);
    if (last !== undefined && last.winner === undefined && winner !== undefined) {
      tricks[tricks.length - 1] = { ...last, winner };
      moments[moments.lastIndexOf(last)] = tricks[tricks.length - 1] as Moment;
    }
  };
  for (const event of events) {
    const body = event.body;
    if (body.case === "playerSeated") {
      seats[body.value.seat] = { seat: body.value.seat, name: body.value.name, bot: body.value.bot };
    } else if (body.case === "handDealt") {
      hand += 1;
      const dealt = body.value.hands.map((h) => h.cards);
      base = { hand, dealt, talon: body.value.talon, dealer: body.value.dealer };
      auction = [];
      plays = [];
      tricks = [];
      moments.push({ ...base, kind: "deal", auction: [], plays: [], trick: 0, winner: undefined, scored: undefined });
    } else if (body.case === "moveMade" && base !== undefined) {
      const move = body.value;
      if (move.moveId.startsWith("play:")) {
        if (plays.length === 0) closeTrick(move.seat);
        plays = [...plays, move];
        if (plays.length === players) {
          const moment: Moment = { ...base, kind: "trick", auction, plays, trick: tricks.length + 1, winner: undefined, scored: undefined };
          tricks.push(moment);
          moments.push(moment);
          plays = [];
        }
      } else {
        auction = [...auction, move];
        moments.push({ ...base, kind: "move", auction, plays: [], trick: 0, winner: undefined, scored: undefined });
      }
    } else if (body.case === "handScored" && base !== undefined) {
      moments.push({ ...base, kind: "scored", auction, plays: [], trick: 0, winner: undefined, scored: body.value });
    }
  }
  return { seats, moments, hands: hand + 1 };
}

/** The card code a move names ("play:T21" -> "T21"), or "". */
export function moveCard(move: MoveMade): string {
  return move.moveId.split(":")[1] ?? "";
}
