// *Play now*: matchmaking (MatchService.FindMatch) for a game and a number of players, rated
// or not, with bots in the free seats after a wait; progress while waiting, a cancel button,
// and the seated table at the end. Signs in as this device's guest first when nobody is.
import { Code, errorInfo } from "../../typescript/src/index.js";
import type { MatchWaiting, VariantInfo } from "../../typescript/src/index.js";
import { client, errorText, saveSeat, variantList } from "./api.js";
import { ensureSignedIn } from "./account.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

/** Seconds to wait before bots fill the free seats (0: never). */
const BOTS_AFTER = [5, 15, 30, 60, 0];
const NAME_KEY = "tarok.name";

function seconds(waited: MatchWaiting["waited"]): number {
  return waited === undefined ? 0 : Number(waited.seconds) + waited.nanos / 1e9;
}

/** The lobby's *Play now* panel; `openTable` is called with the table found. */
export function playNowPanel(openTable: (tableId: string) => void): HTMLElement {
  const panel = h("form", { class: "panel", "data-testid": "play-now-form" });
  void variantList().then((variants) => render(panel, variants, openTable), () => undefined);
  return panel;
}

function render(form: HTMLFormElement, variants: readonly VariantInfo[], openTable: (tableId: string) => void): void {
  const variant = h("select", { name: "match_variant", "aria-label": t("game") },
    variants.map((v) => h("option", { value: v.id }, v.name)));
  const players = h("select", { name: "match_players", "aria-label": t("players") });
  const refresh = (): void => {
    const chosen = variants.find((v) => v.id === variant.value) ?? variants[0];
    const counts = chosen?.playerCounts ?? [];
    fill(players, counts.map((n) => h("option", { value: n, selected: n === Math.max(...counts) }, String(n))));
  };
  variant.addEventListener("change", refresh);
  refresh();
  const rated = h("input", { name: "rated", type: "checkbox", checked: true });
  const botsAfter = h("select", { name: "bots_after", "aria-label": t("bots_after") },
    BOTS_AFTER.map((s) => h("option", { value: s, selected: s === 15 }, s === 0 ? t("bots_never") : t("bots_after_seconds", { n: s }))));
  const go = h("button", { type: "submit", class: "primary", "data-testid": "play-now" }, t("play_now"));
  const cancel = h("button", { type: "button", "data-testid": "cancel-match", hidden: true }, t("cancel"));
  const progress = h("p", { class: "muted", "data-testid": "match-progress", "aria-live": "polite" });
  const label = (text: string, control: HTMLElement): HTMLElement =>
    h("label", { class: "field" }, h("span", {}, text), control);
  fill(form,
    h("h2", {}, t("play_now")),
    h("p", { class: "muted" }, t("play_now_hint")),
    label(t("game"), variant),
    label(t("players"), players),
    h("label", { class: "check" }, rated, ` ${t("rated_table")}`),
    label(t("bots_after"), botsAfter),
    h("div", { class: "actions" }, go, cancel),
    progress);

  let looking: AbortController | undefined;
  cancel.addEventListener("click", () => looking?.abort());
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (looking !== undefined) return;
    const stop = new AbortController();
    looking = stop;
    go.disabled = true;
    cancel.hidden = false;
    progress.textContent = t("match_looking");
    void (async () => {
      try {
        const me = await ensureSignedIn();
        const name = me?.displayName || localStorage.getItem(NAME_KEY) || t("guest");
        const wait = Number(botsAfter.value);
        const { seat, found } = await client.playNow({
          variant: variant.value,
          players: Number(players.value),
          rated: rated.checked,
          botsAfterMs: wait > 0 ? wait * 1000 : undefined,
          name,
          signal: stop.signal,
        }, (w) => {
          progress.textContent = t("match_waiting", { s: Math.floor(seconds(w.waited)), n: w.waiting });
        });
        saveSeat({ tableId: found.tableId, token: seat.token, seat: seat.seat, name, variant: variant.value, savedAt: Date.now() });
        progress.textContent = t("match_found");
        openTable(found.tableId);
      } catch (err) {
        progress.textContent = errorInfo(err).code === Code.Canceled ? t("match_cancelled") : errorText(err);
      } finally {
        looking = undefined;
        go.disabled = false;
        cancel.hidden = true;
      }
    })();
  });
}
