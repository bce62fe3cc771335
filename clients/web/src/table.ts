// A table: the seats, the auction and announcements, the trick, your hand with its legal moves,
// clocks and the score sheet, kept live by a watch stream that survives reconnects.
import { create } from "@bufbuild/protobuf";
import { CardSchema, Code, errorInfo, TableStatus } from "../../typescript/src/index.js";
import type {
  Card,
  HandScored,
  HandView,
  LegalMove,
  Play,
  TableView,
  TarokSeat,
} from "../../typescript/src/index.js";
import { client, connectionOk, languageMenu, onConnection, saveSeat, savedSeats } from "./api.js";
import type { SavedSeat } from "./api.js";
import { cardFace, roman } from "./cards.js";
import { fill, h } from "./dom.js";

const PHASES: Record<string, string> = {
  bidding: "Auction",
  call: "Calling a king",
  talon: "Talon",
  discard: "Discarding",
  announce: "Announcements",
  tricks: "Play",
  done: "Hand over",
};

function words(id: string): string {
  return id.replaceAll("_", " ");
}

function points(n: bigint | number): string {
  const v = Number(n);
  return v > 0 ? `+${v}` : String(v);
}

/** The called card (a card code such as "SK") drawn small; other calls as text. */
function calledCard(called: string): HTMLElement {
  const suit = /^(Sw|Ba|Cu|Co|[HDCST])(?=\w)/.exec(called)?.[1];
  if (suit === undefined) return h("strong", {}, words(called));
  const trump = /^T(\d+)$/.exec(called)?.[1];
  const label = trump === undefined ? called : roman(Number(trump));
  const card = create(CardSchema, { code: called, suit, label });
  return cardFace(card, undefined, true);
}

/** The table page; returns a function that stops it. */
export function showTable(root: HTMLElement, tableId: string, back: () => void): () => void {
  const mine = savedSeats().find((s) => s.tableId === tableId);
  if (mine === undefined) {
    fill(
      root,
      h("p", {}, "This browser holds no seat at table ", h("code", {}, tableId), "."),
      h("button", { onclick: back }, "Back to the lobby"),
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
    fill(this.root, h("p", { class: "muted" }, "Connecting…"));
    try {
      for await (const item of this.seat.watch({ withViews: true, signal: this.abort.signal })) {
        connectionOk();
        const { case: kind, value } = item.item;
        if (kind === "view") {
          this.view = value;
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
      const info = errorInfo(err);
      this.error = `${info.reason || info.codeName}: ${info.message}`;
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
      const info = errorInfo(err);
      this.pending = false;
      if (info.code !== Code.Aborted) this.error = `${info.reason}: ${info.message}`;
      this.render();
    }
  }

  private name(seat: number | undefined): string {
    if (seat === undefined) return "";
    const name = this.view?.seats[seat]?.name || `seat ${seat + 1}`;
    return seat === this.seat.seat ? `${name} (you)` : name;
  }

  private render(): void {
    const view = this.view;
    if (view === undefined) {
      if (this.error) fill(this.root, h("p", { class: "error" }, this.error), h("button", { onclick: this.back }, "Lobby"));
      return;
    }
    const hand = view.hand;
    fill(
      this.root,
      this.header(view),
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
      this.seatActions(view),
      h("div", { class: "table-grid" },
        this.seatsPanel(view),
        h("section", { class: "felt" }, hand ? this.handPanel(view, hand) : this.waiting(view)),
        this.sheet(view),
      ),
    );
  }

  /** Run a seat action (leave, take back, rematch); show its error if it fails. */
  private act(action: () => Promise<void>): void {
    this.error = "";
    action().catch((err: unknown) => {
      const info = errorInfo(err);
      this.error = `${info.reason || info.codeName}: ${info.message}`;
      this.render();
    });
  }

  /** Keep `seat` (a fresh token for this or a new table) and show its table. */
  private open(seat: TarokSeat): void {
    saveSeat({ ...this.saved, tableId: seat.tableId, token: seat.token, seat: seat.seat, savedAt: Date.now() });
    if (seat.tableId === this.seat.tableId) location.reload();
    else location.hash = `#/table/${seat.tableId}`;
  }

  /** Leave / take back / rematch, as the table's state allows. */
  private seatActions(view: TableView): HTMLElement | null {
    const me = this.seat.seat;
    if (me === undefined) return null;
    const mine = view.seats[me];
    const buttons: HTMLElement[] = [];
    if (view.status === TableStatus.SEATING && mine?.taken) {
      buttons.push(h("button", { "data-testid": "leave", onclick: () => this.act(async () => {
        await this.seat.leave();
        this.back();
      }) }, "Leave the table"));
    }
    if (view.status !== TableStatus.FINISHED && (!mine?.taken || mine.bot)) {
      buttons.push(h("span", {}, mine?.bot ? `A ${mine.bot} bot is playing your seat.` : "You left this seat."));
      buttons.push(h("button", { class: "primary", "data-testid": "take-back", onclick: () => this.act(async () => {
        this.open(await this.seat.rejoin(this.saved.name));
      }) }, "Take my seat back"));
    }
    if (view.status === TableStatus.FINISHED) {
      buttons.push(h("button", { class: "primary", "data-testid": "rematch", onclick: () => this.act(async () => {
        this.open(await this.seat.rematch());
      }) }, "Rematch"));
    }
    return buttons.length > 0 ? h("div", { class: "actions" }, buttons) : null;
  }

  private header(view: TableView): HTMLElement {
    const status =
      view.status === TableStatus.SEATING
        ? "waiting for players"
        : view.status === TableStatus.FINISHED
          ? "match over"
          : `hand ${Math.min(view.handsPlayed + 1, view.hands)} of ${view.hands}`;
    return h(
      "header",
      { class: "bar" },
      h("button", { class: "link", onclick: this.back }, "← Lobby"),
      h("h1", {}, words(view.variant)),
      h("span", { class: "muted", "data-testid": "table-id" }, view.tableId),
      h("span", { "data-testid": "status", class: "status" }, status),
      h("span", { class: this.online ? "online" : "offline", "data-testid": "connection" },
        this.online ? "connected" : "reconnecting…"),
      languageMenu(),
    );
  }

  private seatsPanel(view: TableView): HTMLElement {
    const hand = view.hand;
    return h(
      "section",
      { class: "seats-panel" },
      view.seats.map((s) => {
        const i = s.seat;
        const turn = hand?.turn === i && view.status === TableStatus.PLAYING;
        const role =
          hand?.declarer === i ? "declarer" : hand?.partners.includes(i) ? "partner" : "";
        return h(
          "div",
          { class: `seat${turn ? " turn" : ""}${i === this.seat.seat ? " me" : ""}`, "data-seat": i },
          h("strong", {}, this.name(i) || (s.taken ? "" : "free")),
          role ? h("span", { class: "tag" }, role) : null,
          hand?.dealer === i ? h("span", { class: "tag" }, "dealer") : null,
          s.bot ? h("span", { class: "tag bot", title: `played by the server's ${s.bot} bot` }, s.bot) : null,
          h("span", { class: "muted" },
            hand ? `${hand.handSizes[i] ?? 0} cards · ${hand.tricksWon[i] ?? 0} tricks` : ""),
          h("span", { class: "total", "data-testid": `total-${i}` }, String(Number(view.totals[i] ?? 0n))),
          (view.radelci[i] ?? 0) > 0 ? h("span", { class: "radelci", title: "radelci" }, "●".repeat(view.radelci[i] ?? 0)) : null,
          turn && view.deadline ? h("span", { class: "clock", "data-deadline": "" }) : null,
        );
      }),
      view.pot !== 0n ? h("div", { class: "muted" }, `pot ${Number(view.pot)}`) : null,
    );
  }

  private waiting(view: TableView): HTMLElement {
    const free = view.seats.filter((s) => !s.taken).length;
    return h("div", { class: "waiting" },
      h("p", {}, `Waiting for ${free} more player${free === 1 ? "" : "s"}.`),
      h("p", {}, "Others join with the table id ", h("code", {}, view.tableId), "."));
  }

  private handPanel(view: TableView, hand: HandView): (HTMLElement | null)[] {
    const legal = hand.legalMoves;
    const myTurn = legal.length > 0 && !this.pending;
    const byCard = new Map<string, LegalMove>();
    for (const move of legal) if (move.value) byCard.set(move.value, move);
    const inHand = new Set(hand.cards.map((c) => c.code));
    const buttons = legal.filter((m) => !inHand.has(m.value));
    const contract = hand.contract
      ? `${words(hand.contract)}${hand.declarer !== undefined ? ` · ${this.name(hand.declarer)}` : ""}`
      : "";
    return [
      h("div", { class: "info" },
        h("span", { class: "phase", "data-testid": "phase" }, PHASES[hand.phase] ?? words(hand.phase)),
        contract ? h("span", {}, "Game: ", h("strong", {}, contract)) : null,
        hand.called ? h("span", { class: "called" }, "Called: ", calledCard(hand.called)) : null,
      ),
      this.facts(hand),
      hand.publicCards.length > 0
        ? h("div", { class: "public" }, hand.publicCards.map((group) =>
            h("div", { class: "group" },
              h("span", { class: "muted" }, `${words(group.name)}${group.seat !== undefined ? ` · ${this.name(group.seat)}` : ""}`),
              h("div", { class: "cards" }, group.cards.map((c) => cardFace(c, undefined, true))))))
        : null,
      h("div", { class: "tricks" },
        this.trick("Trick", hand.trick, "trick"),
        hand.lastTrick.length > 0 ? this.trick("Last trick", hand.lastTrick, "last-trick", true) : null,
      ),
      hand.result && view.status !== TableStatus.FINISHED ? h("p", { class: "muted" }, "Hand scored: see the score sheet.") : null,
      buttons.length > 0
        ? h("div", { class: "moves", "data-testid": "moves" }, buttons.map((m) =>
            h("button", { class: "move legal", "data-move": m.id, disabled: !myTurn, onclick: () => void this.submit(m) }, m.label)))
        : null,
      h("div", { class: `hand${myTurn ? " active" : ""}`, "data-testid": "hand" },
        hand.cards.map((card: Card) => {
          const move = myTurn ? byCard.get(card.code) : undefined;
          return cardFace(card, move ? () => void this.submit(move) : undefined);
        })),
      h("p", { class: "muted turn-line" },
        view.status !== TableStatus.PLAYING ? "" : legal.length > 0 ? (this.pending ? "Sending…" : "Your move.") :
          hand.turn !== undefined ? `Waiting for ${this.name(hand.turn)}.` : ""),
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

  private sheet(view: TableView): HTMLElement {
    const hands = [...this.scored.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
    const last = view.lastResult ?? (view.status === TableStatus.FINISHED ? view.hand?.result : undefined);
    return h("section", { class: "sheet", "data-testid": "score-sheet" },
      h("h2", {}, view.status === TableStatus.FINISHED ? "Final score" : "Score sheet"),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "game"), view.seats.map((s) => h("th", {}, this.name(s.seat))))),
        h("tbody", {}, hands.map((s, row) => h("tr", {},
          h("td", {}, s.dealNumber),
          h("td", {}, s.result?.redeal ? "redeal" : words(s.result?.contract ?? "")),
          view.seats.map((seat) => h("td", {},
            h("span", { class: "delta" }, points(s.result?.totals[seat.seat] ?? 0n)),
            h("span", { class: "running", "data-testid": `running-${row}-${seat.seat}` }, String(Number(s.totals[seat.seat] ?? 0n))),
            (s.radelci[seat.seat] ?? 0) > 0 ? h("span", { class: "radelci" }, "●".repeat(s.radelci[seat.seat] ?? 0)) : null))),
          this.settlement(view, hands.at(-1)))),
        h("tfoot", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "total"),
          view.seats.map((s) => h("th", { "data-testid": `final-${s.seat}` }, String(Number(view.totals[s.seat] ?? 0n))))))),
      last && last.lines.length > 0
        ? h("div", { class: "lines" }, h("h3", {}, `Last hand: ${words(last.contract)}${last.won === undefined ? "" : last.won ? " – won" : " – lost"}`),
            h("ul", {}, last.lines.map((l) => h("li", {}, `${words(l.item)} ${points(l.points)}`))))
        : null,
    );
  }

  /** At the end of a match, what changed after the last hand (e.g. unplayed radelci). */
  private settlement(view: TableView, last: HandScored | undefined): HTMLElement | null {
    if (view.status !== TableStatus.FINISHED || last === undefined) return null;
    const deltas = view.seats.map((s) => (view.totals[s.seat] ?? 0n) - (last.totals[s.seat] ?? 0n));
    if (deltas.every((d) => d === 0n)) return null;
    return h("tr", { class: "settlement" }, h("td", {}, ""), h("td", {}, "end of match"),
      deltas.map((d) => h("td", {}, h("span", { class: "running" }, points(d)))));
  }

  private tickClock(): void {
    const deadline = this.view?.deadline;
    const el = this.root.querySelector<HTMLElement>("[data-deadline]");
    if (deadline === undefined || el === null) return;
    const ms = Number(deadline.seconds) * 1000 + deadline.nanos / 1e6 - (Date.now() + this.skewMs);
    el.textContent = `${Math.max(0, Math.ceil(ms / 1000))} s`;
    el.classList.toggle("low", ms < 10_000);
  }
}
