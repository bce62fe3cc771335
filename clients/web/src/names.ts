// Names that tell the seats of a table apart, in the page's language.
import { t, wordOr } from "./i18n.js";

export interface NamedSeat {
  readonly seat: number;
  readonly name: string;
  readonly bot: string;
}

// The names the server gives the bots it seats (usecases/botseats.py); a seat called so is shown by the
// page's own word for its bot, so that it is translated and numbered.
const SERVER_BOT_NAMES = new Set([
  "Random bot", "Heuristic bot", "PIMC bot", "Easy bot", "Medium bot", "Hard bot", "Expert bot",
]);

function isPlainBot(s: NamedSeat): boolean {
  return s.bot !== "" && (s.name === "" || SERVER_BOT_NAMES.has(s.name));
}

/** The bot levels the lobby offers, weakest first (the server's names; `docs/bots.md`). */
export const BOT_LEVELS = ["easy", "medium", "hard", "expert"] as const;

/** The bot kind's word ("Heuristic bot", "Expert bot"); unknown kinds by their id. */
export function botWord(kind: string): string {
  return wordOr(`bot_${kind}`, kind);
}

/** One name per seat, all different: bots of the same kind numbered in seat order
 * ("Heuristic bot 1", "Heuristic bot 2"), a name used twice followed by its seat number,
 * a seat without anyone "Seat 3". */
export function seatNames(seats: readonly NamedSeat[]): string[] {
  const kinds = new Map<string, number>();
  for (const s of seats) if (isPlainBot(s)) kinds.set(s.bot, (kinds.get(s.bot) ?? 0) + 1);
  const numbered = new Map<string, number>();
  const names = seats.map((s) => {
    if (isPlainBot(s)) {
      if ((kinds.get(s.bot) ?? 0) < 2) return botWord(s.bot);
      const n = (numbered.get(s.bot) ?? 0) + 1;
      numbered.set(s.bot, n);
      return t("bot_numbered", { bot: botWord(s.bot), n });
    }
    return s.name || t("seat_n", { n: s.seat + 1 });
  });
  return names.map((name, i) =>
    names.indexOf(name) !== names.lastIndexOf(name) ? t("name_at_seat", { name, n: i + 1 }) : name);
}
