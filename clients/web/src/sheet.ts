// The score sheet: one row per scored hand (what it credited each seat and the running
// totals), the end-of-match row, the totals, and the last hand's score lines with their sides.
import { TableStatus } from "../../typescript/src/index.js";
import type { HandResult, HandScored, TableView } from "../../typescript/src/index.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { credited, lineSide } from "./results.js";

export function points(n: bigint | number): string {
  const v = Number(n);
  return v > 0 ? `+${v}` : String(v);
}

/** A hand's game as the server words it ("Berač"): the result's own term, else the rule
 * set's vocabulary (`terms`, for results read from the log), or the redeal word. */
export function gameLabel(result: HandResult | undefined, terms: ReadonlyMap<string, string>): string {
  if (result === undefined) return "";
  if (result.redeal) return t("redeal");
  return result.contractTerm?.label || terms.get(`contract.${result.contract}`) || result.contract.replaceAll("_", " ");
}

/** The sheet; `names` are the seats' names, `hands` the scored hands in order, `terms` the
 * rule set's vocabulary. */
export function scoreSheet(
  view: TableView,
  hands: readonly HandScored[],
  names: readonly string[],
  terms: ReadonlyMap<string, string>,
): HTMLElement {
  const finished = view.status === TableStatus.FINISHED;
  const last = view.lastResult ?? (finished ? view.hand?.result : undefined);
  const seats = view.seats.map((s) => s.seat);
  return h("section", { class: "sheet", "data-testid": "score-sheet", "aria-labelledby": "sheet-title" },
    h("h2", { id: "sheet-title" }, finished ? t("final_score") : t("score_sheet")),
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, h("abbr", { title: t("deal") }, "#")),
        h("th", { scope: "col" }, t("game")),
        seats.map((i) => h("th", { scope: "col" }, names[i] ?? "")))),
      h("tbody", {},
        hands.map((s, row) => {
          const deltas = credited(s.result, view.players);
          return h("tr", {},
            h("td", {}, s.dealNumber),
            h("td", {}, gameLabel(s.result, terms)),
            seats.map((i) => h("td", {},
              h("span", { class: "delta", "data-testid": `delta-${row}-${i}` }, points(deltas[i] ?? 0n)),
              h("span", { class: "running", "data-testid": `running-${row}-${i}` }, String(Number(s.totals[i] ?? 0n))),
              (s.radelci[i] ?? 0) > 0
                ? h("span", { class: "radelci", title: t("radelci") }, "●".repeat(s.radelci[i] ?? 0))
                : null)));
        }),
        settlement(view, hands.at(-1))),
      h("tfoot", {}, h("tr", {}, h("th", {}, ""), h("th", { scope: "row" }, t("total")),
        seats.map((i) => h("th", { "data-testid": `final-${i}` }, String(Number(view.totals[i] ?? 0n))))))),
    last && last.lines.length > 0 ? lines(last, names, terms) : null,
  );
}

/** At the end of a match, what changed after the last hand (e.g. uncrossed radelci). */
function settlement(view: TableView, last: HandScored | undefined): HTMLElement | null {
  if (view.status !== TableStatus.FINISHED || last === undefined) return null;
  const deltas = view.seats.map((s) => (view.totals[s.seat] ?? 0n) - (last.totals[s.seat] ?? 0n));
  if (deltas.every((d) => d === 0n)) return null;
  return h("tr", { class: "settlement", "data-testid": "end-of-match" }, h("td", {}, ""), h("td", {}, t("end_of_match")),
    view.seats.map((s) => h("td", {},
      h("span", { class: "delta", "data-testid": `settlement-${s.seat}` }, points(deltas[s.seat] ?? 0n)))));
}

function lines(result: HandResult, names: readonly string[], terms: ReadonlyMap<string, string>): HTMLElement {
  const outcome = result.won === undefined ? "" : result.won ? ` – ${t("won")}` : ` – ${t("lost")}`;
  const side = (l: HandResult["lines"][number]): string => {
    const found = lineSide(l, result);
    if ("side" in found) return found.side === "declarers" ? t("side_declarers") : t("side_defenders");
    return found.seats.map((s) => names[s] ?? "").join(", ");
  };
  const declarer = result.declarer !== undefined ? names[result.declarer] : undefined;
  return h("div", { class: "lines", "data-testid": "score-lines" },
    h("h3", {}, `${t("last_hand")}: ${gameLabel(result, terms)}${outcome}`),
    declarer !== undefined
      ? h("p", { class: "muted" }, t("declarer_side_is", {
          names: result.team.map((s) => names[s] ?? "").join(", ") || declarer }))
      : null,
    h("table", {},
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("score_item")), h("th", { scope: "col" }, t("side")),
        h("th", { scope: "col" }, result.declarer !== undefined ? t("points_declarer_side") : t("points")))),
      h("tbody", {}, result.lines.map((l) => h("tr", {},
        h("td", {}, l.label || l.item),
        h("td", { class: "side" }, side(l)),
        h("td", {}, points(l.points)))))));
}
