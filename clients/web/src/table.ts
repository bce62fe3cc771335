// A table: the seats, the auction and announcements, the trick, your hand with its legal moves,
// clocks and the score sheet, kept live by a watch stream that survives reconnects.
import { create } from "@bufbuild/protobuf";
import { CardSchema, Code, errorInfo, TableStatus } from "../../typescript/src/index.js";
import type { Card, HandScored, HandView, LegalMove, Play, TableView, TarokSeat } from "../../typescript/src/index.js";
import { client, connectionOk, errorText, languageMenu, onConnection, saveSeat, savedSeats, variantInfo, vocabulary } from "./api.js";
import type { SavedSeat } from "./api.js";
import { cardFace, roman } from "./cards.js";
import { fill, h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";
import { botWord, seatNames } from "./names.js";
import { cardsToDiscard } from "./results.js";
import { scoreSheet } from "./sheet.js";

function words(id: string): string {
  return id.replaceAll("_", " ");
}

/** The called card (a card code such as "SK") drawn small; other calls as text. */
function calledCard(called: string, label: string): HTMLElement {
  const suit = /^(Sw|Ba|Cu|Co|[HDCST])(?=\w)/.exec(called)?.[1];
  if (suit === undefined) return h("strong", {}, label || words(called));
  const trump = /^T(\d+)$/.exec(called)?.[1];
  const card = create(CardSchema, { code: called, suit, label: label || (trump === undefined ? called : roman(Number(trump))) });
  return cardFace(card, undefined, true);
}

/** The table page; returns a function that stops it. */
export function showTable(root: HTMLElement, tableId: string, back: () => void): () => void {
  const mine = savedSeats().find((s) => s.tableId === tableId);
  if (mine === undefined) {
    fill(
      root,
      h("p", {}, t("no_seat_here"), " ", h("code", {}, tableId)),
      h("button", { onclick: back }, t("back_to_lobby")),
    );
    return () => undefined;
  }
  const seat = client.seatWithToken(tableId, mine.token, mine.seat);
  const page = new TablePage(root, seat, mine, back);
  void page.run();
  return () => page.stop();
}

class TablePage {
  private readonly abort = new AbortController();
  private readonly scored = new Map<bigint, HandScored>();
  private view: TableView | undefined;
  private names: string[] = [];
  private variant = "";
  private terms: ReadonlyMap<string, string> = new Map();
  private pending = false;
  private error = "";
  private online = true;
  private readonly clockTimer: ReturnType<typeof setInterval>;
  private readonly unlisten: () => void;
  /** Server time minus local time, from the last view that carried a deadline. */
  private skewMs = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly seat: TarokSeat,
    private readonly saved: SavedSeat,
    private readonly back: () => void,
  ) {
    this.clockTimer = setInterval(() => this.tickClock(), 500);
    this.unlisten = onConnection((online) => {
      this.online = online;
      this.render();
    });
  }

  stop(): void {
    this.abort.abort();
    clearInterval(this.clockTimer);
    this.unlisten();
  }

  async run(): Promise<void> {
    fill(this.root, h("p", { class: "muted" }, t("connecting")));
    try {
      for await (const item of this.seat.watch({ withViews: true, signal: this.abort.signal })) {
        connectionOk();
        const { case: kind, value } = item.item;
        if (kind === "view") {
          this.view = value;
          this.names = seatNames(value.seats);
          if (this.variant === "") {
            const info = await variantInfo(value.variant);
            this.variant = info?.name || value.variant;
            this.terms = vocabulary(info);
          }
          if (value.serverTime) {
            const server = Number(value.serverTime.seconds) * 1000 + value.serverTime.nanos / 1e6;
            this.skewMs = server - Date.now();
          }
          this.pending = false;
          this.render();
        } else if (kind === "event" && value.body.case === "handScored") {
          this.scored.set(value.version, value.body.value);
        }
      }
    } catch (err) {
      if (this.abort.signal.aborted) return;
      this.error = errorText(err);
      this.render();
    }
  }

  private async submit(move: LegalMove): Promise<void> {
    if (this.pending || this.view === undefined) return;
    this.pending = true;
    this.error = "";
    this.render();
    try {
      await this.seat.submit(move.id, { expectedVersion: this.view.version });
    } catch (err) {
      this.pending = false;
      if (errorInfo(err).code !== Code.Aborted) this.error = errorText(err);
      this.render();
    }
  }

  private name(seat: number | undefined): string {
    if (seat === undefined) return "";
    const name = this.names[seat] ?? t("seat_n", { n: seat + 1 });
    return seat === this.seat.seat ? t("name_you", { name }) : name;
  }

  private render(): void {
    const view = this.view;
    if (view === undefined) {
      if (this.error) fill(this.root, h("p", { class: "error" }, this.error), h("button", { onclick: this.back }, t("lobby")));
      return;
    }
    const hand = view.hand;
    keepFocus(this.root, () => fill(
      this.root,
      this.header(view),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.seatActions(view),
      h("div", { class: "table-grid" },
        this.seatsPanel(view),
        h("section", { class: "felt", "aria-label": t("the_table") }, hand ? this.handPanel(view, hand) : this.waiting(view)),
        scoreSheet(view, this.hands(), this.names.map((_, i) => this.name(i)), this.terms),
      ),
    ));
  }

  private hands(): HandScored[] {
    return [...this.scored.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
  }

  /** Run a seat action (leave, take back, rematch); show its error if it fails. */
  private act(action: () => Promise<void>): void {
    this.error = "";
    action().catch((err: unknown) => {
      this.error = errorText(err);
      this.render();
    });
  }

  /** Keep `seat` (a fresh token for this or a new table) and show its table. */
  private open(seat: TarokSeat): void {
    saveSeat({ ...this.saved, tableId: seat.tableId, token: seat.token, seat: seat.seat, savedAt: Date.now() });
    if (seat.tableId === this.seat.tableId) location.reload();
    else location.hash = `#/table/${seat.tableId}`;
  }

  /** Leave / take back / rematch / replay, as the table's state allows. */
  private seatActions(view: TableView): HTMLElement | null {
    const me = this.seat.seat;
    const mine = me === undefined ? undefined : view.seats[me];
    const buttons: HTMLElement[] = [];
    if (me !== undefined && view.status === TableStatus.SEATING && mine?.taken) {
      buttons.push(h("button", { "data-testid": "leave", onclick: () => this.act(async () => {
        await this.seat.leave();
        this.back();
      }) }, t("leave_table")));
    }
    if (me !== undefined && view.status !== TableStatus.FINISHED && (!mine?.taken || mine.bot)) {
      buttons.push(h("span", {}, mine?.bot ? t("bot_plays_your_seat", { bot: botWord(mine.bot) }) : t("you_left")));
      buttons.push(h("button", { class: "primary", "data-testid": "take-back", onclick: () => this.act(async () => {
        this.open(await this.seat.rejoin(this.saved.name));
      }) }, t("take_seat_back")));
    }
    if (view.status === TableStatus.FINISHED) {
      if (me !== undefined) {
        buttons.push(h("button", { class: "primary", "data-testid": "rematch", onclick: () => this.act(async () => {
          this.open(await this.seat.rematch());
        }) }, t("rematch")));
      }
      buttons.push(h("a", { class: "button", href: `#/replay/${view.tableId}`, "data-testid": "replay" }, t("replay")));
    }
    return buttons.length > 0 ? h("div", { class: "actions" }, buttons) : null;
  }

  private header(view: TableView): HTMLElement {
    const status =
      view.status === TableStatus.SEATING
        ? t("status_seating")
        : view.status === TableStatus.FINISHED
          ? t("status_finished")
          : t("status_hand", { n: Math.min(view.handsPlayed + 1, view.hands), of: view.hands });
    return h(
      "header",
      { class: "bar" },
      h("a", { class: "link", href: "#/", onclick: (e: Event) => { e.preventDefault(); this.back(); } }, `← ${t("lobby")}`),
      h("h1", {}, view.displayName || this.variant),
      view.displayName ? h("span", { class: "muted" }, this.variant) : null,
      h("span", { class: "muted", "data-testid": "table-id", title: t("table_id") }, view.tableId),
      h("span", { "data-testid": "status", "data-status": TableStatus[view.status], class: "status" }, status),
      h("span", { class: this.online ? "online" : "offline", "data-testid": "connection", "data-online": String(this.online) },
        this.online ? t("connected") : t("reconnecting")),
      languageMenu(),
    );
  }

  private seatsPanel(view: TableView): HTMLElement {
    const hand = view.hand;
    return h(
      "section",
      { class: "seats-panel", "aria-label": t("seats") },
      view.seats.map((s) => {
        const i = s.seat;
        const turn = hand?.turn === i && view.status === TableStatus.PLAYING;
        const role = hand?.declarer === i ? t("declarer") : hand?.partners.includes(i) ? t("partner") : "";
        return h(
          "div",
          { class: `seat${turn ? " turn" : ""}${i === this.seat.seat ? " me" : ""}`, "data-seat": i },
          h("strong", {}, s.taken ? this.name(i) : t("free_seat")),
          role ? h("span", { class: "tag" }, role) : null,
          hand?.dealer === i ? h("span", { class: "tag" }, t("dealer")) : null,
          s.bot ? h("span", { class: "tag bot", title: botWord(s.bot) }, t("bot_tag")) : null,
          turn ? h("span", { class: "tag turn-tag" }, t("to_move")) : null,
          h("span", { class: "muted" },
            hand ? t("cards_and_tricks", { cards: hand.handSizes[i] ?? 0, tricks: hand.tricksWon[i] ?? 0 }) : ""),
          h("span", { class: "total", "data-testid": `total-${i}` }, String(Number(view.totals[i] ?? 0n))),
          (view.radelci[i] ?? 0) > 0 ? h("span", { class: "radelci", title: t("radelci") }, "●".repeat(view.radelci[i] ?? 0)) : null,
          turn && view.deadline ? h("span", { class: "clock", "data-deadline": "" }) : null,
        );
      }),
      view.pot !== 0n ? h("div", { class: "muted" }, t("pot", { n: Number(view.pot) })) : null,
    );
  }

  private waiting(view: TableView): HTMLElement {
    const free = view.seats.filter((s) => !s.taken).length;
    return h("div", { class: "waiting" },
      h("p", { "data-testid": "waiting" }, t("waiting_free_seats", { n: free })),
      h("p", {}, t("others_join_with"), " ", h("code", {}, view.tableId)));
  }

  private handPanel(view: TableView, hand: HandView): (HTMLElement | null)[] {
    const legal = hand.legalMoves;
    const myTurn = legal.length > 0 && !this.pending;
    const byCard = new Map<string, LegalMove>();
    for (const move of legal) if (move.value) byCard.set(move.value, move);
    const inHand = new Set(hand.cards.map((c) => c.code));
    const buttons = legal.filter((m) => !inHand.has(m.value));
    const contract = hand.contractTerm?.label || words(hand.contract);
    const discarding = legal.some((m) => m.id.startsWith("discard:"));
    const toDiscard = discarding && this.seat.seat !== undefined
      ? cardsToDiscard(hand.cards.length, hand.handSizes, this.seat.seat) : 0;
    return [
      h("div", { class: "info" },
        h("span", { class: "phase", "data-testid": "phase", "data-phase": hand.phase }, hand.phaseTerm?.label || words(hand.phase)),
        contract ? h("span", {}, `${t("game")}: `, h("strong", {}, contract),
          hand.declarer !== undefined ? ` · ${this.name(hand.declarer)}` : "") : null,
        hand.called ? h("span", { class: "called" }, `${t("called")}: `, calledCard(hand.called, hand.calledTerm?.label ?? "")) : null,
      ),
      this.facts(hand),
      hand.publicCards.length > 0
        ? h("div", { class: "public" }, hand.publicCards.map((group) =>
            h("div", { class: "group" },
              h("span", { class: "muted" }, `${group.group?.label || words(group.name)}${group.seat !== undefined ? ` · ${this.name(group.seat)}` : ""}`),
              h("div", { class: "cards" }, group.cards.map((c) => cardFace(c, undefined, true))))))
        : null,
      h("div", { class: "tricks" },
        this.trick(t("trick"), hand.trick, "trick"),
        hand.lastTrick.length > 0 ? this.trick(t("last_trick"), hand.lastTrick, "last-trick", true) : null,
      ),
      hand.result && view.status !== TableStatus.FINISHED ? h("p", { class: "muted" }, t("hand_scored_see_sheet")) : null,
      toDiscard > 0 ? h("p", { class: "discard-count", "data-testid": "to-discard", role: "status" }, t("cards_to_discard", { n: toDiscard })) : null,
      buttons.length > 0
        ? h("div", { class: "moves", role: "group", "aria-label": t("your_moves"), "data-testid": "moves" }, buttons.map((m) =>
            h("button", { class: "move legal", "data-move": m.id, disabled: !myTurn, onclick: () => void this.submit(m) }, m.label)))
        : null,
      h("div", { class: `hand${myTurn ? " active" : ""}`, role: "group", "aria-label": t("your_cards"), "data-testid": "hand",
        tabindex: -1, "data-focus-home": "" },
        hand.cards.map((card: Card) => {
          const move = myTurn ? byCard.get(card.code) : undefined;
          return cardFace(card, move ? () => void this.submit(move) : undefined);
        })),
      h("p", { class: "muted turn-line", role: "status" },
        view.status !== TableStatus.PLAYING ? "" : legal.length > 0 ? (this.pending ? t("sending") : t("your_move")) :
          hand.turn !== undefined ? t("waiting_for", { name: this.name(hand.turn) }) : ""),
    ];
  }

  private facts(hand: HandView): HTMLElement | null {
    if (hand.facts.length === 0) return null;
    return h("ol", { class: "facts", "data-testid": "facts" }, hand.facts.map((f) =>
      h("li", {},
        f.seat !== undefined ? h("strong", {}, this.name(f.seat)) : null,
        // the server's words for the fact, in the table's language; ids only from older servers
        f.label ? ` ${f.label}` : ` ${words(f.kind)} ${words(f.value)}`,
        !f.label && f.level > 1 ? ` ×${2 ** (f.level - 1)}` : "")));
  }

  private trick(title: string, plays: Play[], id: string, small = false): HTMLElement {
    return h("div", { class: `trick ${id}`, "data-testid": id },
      h("span", { class: "muted" }, title),
      h("div", { class: "cards" }, plays.map((p) =>
        h("figure", {}, p.card ? cardFace(p.card, undefined, small) : null, h("figcaption", {}, this.name(p.seat))))));
  }

  private tickClock(): void {
    const deadline = this.view?.deadline;
    const el = this.root.querySelector<HTMLElement>("[data-deadline]");
    if (deadline === undefined || el === null) return;
    const ms = Number(deadline.seconds) * 1000 + deadline.nanos / 1e6 - (Date.now() + this.skewMs);
    el.textContent = t("seconds", { n: Math.max(0, Math.ceil(ms / 1000)) });
    el.classList.toggle("low", ms < 10_000);
  }
}
