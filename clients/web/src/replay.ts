// The replay of a finished table: step through each deal, the auction move by move and the
// play trick by trick (buttons or the arrow keys), read from the table's log.
import { create } from "@bufbuild/protobuf";
import { CardSchema } from "../../typescript/src/index.js";
import type { AnalyseHandResponse, Card, HandResult, MoveMade, TableLog, TarokSeat, VariantInfo } from "../../typescript/src/index.js";
import { playedTable } from "./account.js";
import { analysisNumber, trickAnalysis } from "./analysis.js";
import { client, errorText, languageMenu, savedSeats, variantList, vocabulary } from "./api.js";
import { cardFace } from "./cards.js";
import { fill, h, keepFocus } from "./dom.js";
import { t } from "./i18n.js";
import { seatNames } from "./names.js";
import { credited } from "./results.js";
import { gameLabel, points } from "./sheet.js";
import { moveCard, replayOf } from "./steps.js";
import type { Moment, Replay } from "./steps.js";

const VALUE_KINDS = ["card", "contract", "bonus", "kontra", "declaration", "combination", "choice", "word", "group"];

/** The replay page; returns a function that stops it. */
export function showReplay(root: HTMLElement, tableId: string, back: () => void): () => void {
  let stopped = false;
  let stopKeys: () => void = () => undefined;
  let page: ReplayPage | undefined;
  fill(root, h("p", { class: "muted" }, t("loading_replay")));
  void (async () => {
    try {
      const saved = savedSeats().find((s) => s.tableId === tableId);
      const seat = saved !== undefined ? client.seatWithToken(tableId, saved.token, saved.seat) : await playedTable(tableId);
      const log = await seat.log();
      const variants = await variantList();
      if (stopped) return;
      page = new ReplayPage(root, log, variants, back, seat);
      stopKeys = page.listen();
      page.render();
    } catch (err) {
      fill(root, h("p", { class: "error", role: "alert" }, errorText(err)),
        h("button", { onclick: back }, t("back_to_lobby")));
    }
  })();
  return () => {
    stopped = true;
    stopKeys();
    page?.stop();
  };
}

class ReplayPage {
  private readonly replay: Replay;
  private readonly words: Map<string, string>;
  private readonly names: string[];
  private readonly cards = new Map<string, Card>();
  private readonly variantName: string;
  private readonly players: number;
  private at = 0;
  private stopped = false;
  // each hand's analysis (by 0-based hand): asked once, null when the server has none for it
  private readonly analyses = new Map<number, AnalyseHandResponse | null>();
  private readonly asked = new Set<number>();

  constructor(
    private readonly root: HTMLElement,
    private readonly log: TableLog,
    variants: readonly VariantInfo[],
    private readonly back: () => void,
    private readonly seat: TarokSeat,
  ) {
    const created = log.events.find((e) => e.body.case === "tableCreated")?.body;
    const variantId = created?.case === "tableCreated" ? created.value.variant : "";
    this.players = created?.case === "tableCreated" ? created.value.players : 4;
    const variant = variants.find((v) => v.id === variantId);
    this.variantName = variant?.name || variantId;
    this.words = vocabulary(variant);
    this.replay = replayOf(log.events, this.players);
    this.names = seatNames(this.replay.seats.map((s, i) => s ?? { seat: i, name: "", bot: "" }));
    for (const m of this.replay.moments) for (const c of [...m.dealt.flat(), ...m.talon]) this.cards.set(c.code, c);
  }

  /** Arrow keys, Home and End step through the replay; returns a function that stops them. */
  listen(): () => void {
    const onKey = (e: KeyboardEvent): void => {
      if (e.target instanceof HTMLSelectElement || e.altKey || e.ctrlKey || e.metaKey) return;
      const to = { ArrowRight: this.at + 1, ArrowLeft: this.at - 1, Home: 0, End: Infinity }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      this.go(to);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }

  stop(): void {
    this.stopped = true;
  }

  private go(to: number): void {
    this.at = Math.max(0, Math.min(this.replay.moments.length - 1, to));
    this.render();
  }

  render(): void {
    if (this.stopped) return;
    const moment = this.replay.moments[this.at];
    const last = this.replay.moments.length - 1;
    const step = (key: string, label: string, to: number, disabled: boolean): HTMLElement =>
      h("button", { "data-step": key, disabled, onclick: () => this.go(to) }, label);
    keepFocus(this.root, () => fill(
      this.root,
      h("header", { class: "bar" },
        h("a", { class: "link", href: "#/", onclick: (e: Event) => { e.preventDefault(); this.back(); } }, `← ${t("lobby")}`),
        h("h1", {}, t("replay_of", { game: this.variantName })),
        h("span", { class: "muted" }, this.log.tableId),
        languageMenu()),
      h("nav", { class: "replay-controls", "aria-label": t("replay_steps") },
        step("first", `⇤ ${t("first")}`, 0, this.at === 0),
        step("previous", `◀ ${t("previous")}`, this.at - 1, this.at === 0),
        h("span", { class: "position", "data-testid": "replay-position", "aria-live": "polite" },
          t("step_of", { n: this.at + 1, of: last + 1 })),
        step("next", `${t("next")} ▶`, this.at + 1, this.at >= last),
        step("last", `${t("last")} ⇥`, last, this.at >= last)),
      h("p", { class: "muted" }, t("replay_keys")),
      moment === undefined ? h("p", {}, t("replay_empty")) : this.moment(moment),
    ));
  }

  private label(kind: string, id: string): string | undefined {
    return this.words.get(`${kind}.${id}`);
  }

  /** A move in the page's language, from its id ("bid:beggar" -> "Licitiraj: Berač"). */
  private moveText(move: MoveMade): string {
    const [kind = "", value = ""] = move.moveId.split(":");
    const verb = this.label("move", kind);
    if (verb === undefined) return move.label || move.moveId;
    if (value === "") return verb;
    const found = VALUE_KINDS.map((k) => this.label(k, value)).find((l) => l !== undefined);
    return `${verb}: ${found ?? this.cards.get(value)?.label ?? value.replaceAll("_", " ")}`;
  }

  private card(code: string, small = true): HTMLElement {
    const known = this.cards.get(code) ?? create(CardSchema, { code, label: code });
    const label = this.label("card", code.replace(/\.\d+$/, "")) ?? known.label;
    return cardFace({ ...known, label: label || known.label }, undefined, small);
  }

  private moment(m: Moment): HTMLElement {
    const title = m.kind === "deal" ? t("replay_deal")
      : m.kind === "move" ? t("replay_auction")
        : m.kind === "trick" ? t("trick_n", { n: m.trick })
          : t("replay_score");
    return h("section", { class: "replay felt", "data-testid": "replay", "data-kind": m.kind, "aria-labelledby": "moment-title" },
      h("h2", { id: "moment-title" }, `${t("hand_n_of", { n: m.hand + 1, of: this.replay.hands })} · ${title}`),
      m.kind === "deal" ? this.dealt(m) : null,
      m.auction.length > 0
        ? h("ol", { class: "facts", "data-testid": "replay-auction", "aria-label": t("replay_auction") },
            m.auction.map((move) => h("li", {}, h("strong", {}, this.names[move.seat] ?? ""), ` ${this.moveText(move)}`)))
        : null,
      m.kind === "trick"
        ? h("div", { class: "trick", "data-testid": "replay-trick" },
            h("div", { class: "cards" }, m.plays.map((p) => this.played(m, p))),
            m.winner !== undefined ? h("p", {}, t("trick_won_by", { name: this.names[m.winner] ?? "" })) : null,
            this.analysisBar(m))
        : null,
      m.scored?.result !== undefined ? this.result(m.scored.result) : null,
    );
  }

  /** A card of a trick with its player and, once the hand is analysed, what it cost. */
  private played(m: Moment, p: MoveMade): HTMLElement {
    const code = moveCard(p);
    const found = this.analyses.get(m.hand);
    const analysed = found ? trickAnalysis(found, m.trick - 1) : undefined;
    const cost = analysed?.costs.get(code) ?? 0;
    const lost = cost >= 0.05;
    return h("figure", { "data-cost": analysed === undefined ? undefined : analysisNumber(cost) },
      this.card(code, false),
      h("figcaption", {}, this.names[p.seat] ?? "",
        lost ? h("span", { class: "cost" }, ` (${t("analysis_cost", { n: analysisNumber(cost) })})`) : null));
  }

  /** The hand's analysis after this trick as a bar: what perfect play from here gives the side
   * (asked of the server the first time a trick of the hand is shown). */
  private analysisBar(m: Moment): HTMLElement | null {
    if (!this.asked.has(m.hand)) {
      this.asked.add(m.hand);
      this.seat.analyse(m.hand + 1).then(
        (found) => this.analyses.set(m.hand, found),
        () => this.analyses.set(m.hand, null), // not analysable (a rule set or contract the solver does not model)
      ).finally(() => {
        if (this.replay.moments[this.at]?.hand === m.hand) this.render();
      });
    }
    const found = this.analyses.get(m.hand);
    if (found === undefined) return h("p", { class: "muted", "data-testid": "replay-analysis" }, t("analysis_loading"));
    const a = found === null ? undefined : trickAnalysis(found, m.trick - 1);
    if (a === undefined) return null;
    const side = a.side.map((s) => this.names[s] ?? "").join(", ");
    const words = { side, value: `${a.exact ? "" : "≈"}${analysisNumber(a.value)}` }; // ≈: estimated
    const text = a.measure === "tricks" ? t("analysis_tricks", words) : t("analysis_points", words);
    const share = a.top > 0 ? Math.max(0, Math.min(1, a.value / a.top)) : 0;
    return h("div", { class: "analysis", "data-testid": "replay-analysis", "data-value": analysisNumber(a.value) },
      h("p", {}, text),
      h("div", { class: "analysis-bar", role: "meter", "aria-label": text, "aria-valuemin": 0,
        "aria-valuemax": analysisNumber(a.top), "aria-valuenow": analysisNumber(a.value) },
      h("span", { style: `width: ${(share * 100).toFixed(1)}%` })));
  }

  private dealt(m: Moment): HTMLElement {
    return h("div", { class: "dealt" },
      h("p", {}, t("dealer_is", { name: this.names[m.dealer] ?? "" })),
      m.dealt.map((cards, seat) => h("div", { class: "group" },
        h("span", { class: "muted" }, this.names[seat] ?? ""),
        h("div", { class: "cards" }, cards.map((c) => this.card(c.code))))),
      m.talon.length > 0
        ? h("div", { class: "group" }, h("span", { class: "muted" }, this.label("group", "talon") ?? t("talon")),
            h("div", { class: "cards" }, m.talon.map((c) => this.card(c.code))))
        : null);
  }

  private result(r: HandResult): HTMLElement {
    const game = gameLabel(r, this.words);
    const amounts = credited(r, this.players);
    return h("div", { class: "replay-result" },
      h("p", {}, h("strong", {}, game),
        r.declarer !== undefined ? ` · ${this.names[r.declarer] ?? ""}` : "",
        r.won === undefined ? "" : ` – ${r.won ? t("won") : t("lost")}`),
      h("ul", {}, r.lines.map((l) =>
        h("li", {}, `${this.label("line", l.id || l.item) ?? this.label("bonus", l.id || l.item) ?? this.label("contract", l.id || l.item) ?? l.item} ${points(l.points)}`))),
      h("p", {}, amounts.map((a, seat) => `${this.names[seat] ?? ""} ${points(a)}`).join(" · ")));
  }
}
