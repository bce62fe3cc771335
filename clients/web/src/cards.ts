// Cards as small drawn faces: taroks with their numerals, suit cards with rank and suit sign,
// the back colour of two-pack games as a stripe.
import type { Card } from "../../typescript/src/index.js";
import { h } from "./dom.js";

interface Suit {
  readonly glyph: string;
  readonly colour: "red" | "black";
  readonly name: string;
}

const SUITS: Record<string, Suit> = {
  H: { glyph: "♥", colour: "red", name: "hearts" },
  D: { glyph: "♦", colour: "red", name: "diamonds" },
  C: { glyph: "♣", colour: "black", name: "clubs" },
  S: { glyph: "♠", colour: "black", name: "spades" },
  Sw: { glyph: "⚔", colour: "black", name: "swords" },
  Ba: { glyph: "⚚", colour: "black", name: "batons" },
  Cu: { glyph: "⚱", colour: "red", name: "cups" },
  Co: { glyph: "⛀", colour: "red", name: "coins" },
};

const NUMERALS: [number, string][] = [
  [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"],
];

/** 21 -> "XXI", 14 -> "XIV"; 4 is "IIII", as tarok cards print it. */
export function roman(n: number): string {
  if (n === 4) return "IIII";
  let out = "";
  for (const [value, text] of NUMERALS) {
    for (; n >= value; n -= value) out += text;
  }
  return out;
}

/** The card code without the ".1"/".2" of two-pack games. */
function bareCode(card: Card): string {
  return card.code.replace(/\.\d+$/, "");
}

/** The back colour of two-pack games (the pack a "X.1"/"X.2" code names), or "". */
export function backColour(card: Card): string {
  return /\.\d+$/.test(card.code) ? (card.pack === 0 ? "blue" : "red") : "";
}

/** The rank printed in the card's corner: a suit card's rank from its label in the viewer's
 * language ("♥D" -> "D"), else from its code ("K", "10"); a tarok's numeral or name from its label ("XXI", "Škis", "Angel"),
 * a numbered trump's number as a numeral ("Trump 16" -> "XVI"). */
export function rankText(card: Card): string {
  const code = bareCode(card);
  const label = card.label.replace(/\s*\(.*\)$/, "");
  const suit = SUITS[card.suit];
  if (suit !== undefined && code.startsWith(card.suit)) {
    // the label's own letter ("♥D" for a queen in Slovenian), else the code's ("Q")
    const own = label.startsWith(suit.glyph) ? label.slice(suit.glyph.length) : "";
    return own.length > 0 && own.length <= 2 ? own : code.slice(card.suit.length);
  }
  const trump = /^T(\d+)$/.exec(code)?.[1];
  if (trump !== undefined && label.endsWith(` ${trump}`)) return roman(Number(trump));
  return label;
}

/** The accessible name: the server's label (in the table's language). */
export function cardName(card: Card): string {
  return card.label || card.code;
}

/** A card face; `onPlay` makes it a button (a legal move), otherwise it is a picture. */
export function cardFace(card: Card, onPlay?: () => void, small = false): HTMLElement {
  const suit = SUITS[card.suit];
  const kind = suit === undefined ? "tarok" : `suit ${suit.colour}`;
  const back = backColour(card);
  const corner = rankText(card);
  const named = suit === undefined && !/^[IVXL]+$/.test(corner);
  const cls = ["card", kind, small ? "small" : "", named ? "named" : "", back ? `back-${back}` : ""].join(" ").trim();
  const face = [
    h("span", { class: corner.length >= 5 ? "corner long" : "corner" }, corner),
    h("span", { class: "pip" }, suit?.glyph ?? (card.suit === "T" ? "✦" : "★")),
  ];
  const attrs = { title: cardName(card), "aria-label": cardName(card), "data-card": card.code };
  if (onPlay === undefined) return h("span", { ...attrs, class: cls, role: "img" }, face);
  return h("button", { ...attrs, class: `${cls} legal`, onclick: onPlay }, face);
}
