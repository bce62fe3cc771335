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

const WORDS: Record<string, string> = {
  King: "K",
  Queen: "Q",
  Cavallo: "C",
  Knight: "C",
  Fante: "J",
  Jack: "J",
  Ace: "A",
};

const BACK = /\s*\((\w+) back\)$/;

/** The label without a "(blue back)" suffix. */
function bare(card: Card): string {
  return card.label.replace(BACK, "");
}

/** The back colour of two-pack games ("blue", "red"), or "". */
export function backColour(card: Card): string {
  return BACK.exec(card.label)?.[1] ?? "";
}

/** The card's rank as printed in its corner: "XXI" for a tarok, "K" or "10" for a suit card. */
export function rankText(card: Card): string {
  const label = bare(card);
  const suit = SUITS[card.suit];
  if (suit === undefined) return label; // taroks and the fool: their numeral or name
  const rank = label.replace(suit.glyph, "").split(" of ")[0] ?? label;
  return WORDS[rank] ?? rank;
}

/** Accessible name, e.g. "tarok XXI" or "K of hearts". */
export function cardName(card: Card): string {
  const suit = SUITS[card.suit];
  const back = backColour(card) ? ` (${backColour(card)} back)` : "";
  if (suit === undefined) return `${card.suit === "T" ? "tarok " : ""}${bare(card)}${back}`;
  return `${rankText(card)} of ${suit.name}${back}`;
}

/** A card face; `onPlay` makes it a button (a legal move), otherwise it is a picture. */
export function cardFace(card: Card, onPlay?: () => void, small = false): HTMLElement {
  const suit = SUITS[card.suit];
  const kind = suit === undefined ? "tarok" : `suit ${suit.colour}`;
  const back = backColour(card);
  const cls = ["card", kind, small ? "small" : "", back ? `back-${back}` : ""].join(" ").trim();
  const face = [
    h("span", { class: "corner" }, rankText(card)),
    h("span", { class: "pip" }, suit?.glyph ?? (card.suit === "T" ? "✦" : "★")),
  ];
  const attrs = { title: cardName(card), "aria-label": cardName(card), "data-card": card.code };
  if (onPlay === undefined) return h("span", { ...attrs, class: cls, role: "img" }, face);
  return h("button", { ...attrs, class: `${cls} legal`, onclick: onPlay }, face);
}
