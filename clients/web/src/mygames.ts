// *My games* (#/games): the signed-in player's ratings (profile), finished tables (paged,
// newest first, each opening its replay) and a leaderboard per game and player count.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { SkillRating, TablePlayed, VariantInfo } from "../../typescript/src/index.js";
import { client, errorText, languageMenu, saveSeat, savedSeats, variantList } from "./api.js";
import { account, accountBar } from "./account.js";
import { fill, h } from "./dom.js";
import { locale, t } from "./i18n.js";
import { seatNames } from "./names.js";

const PAGE = 10;

/** A rating as shown: its ordinal to one decimal, marked while provisional. */
export function ratingText(rating: SkillRating | undefined): string {
  if (rating === undefined) return "–";
  const value = rating.ordinal.toFixed(1);
  return rating.provisional ? t("rating_provisional", { rating: value }) : value;
}

/** The page; returns a function that stops it. */
export function showMyGames(root: HTMLElement, back: () => void): () => void {
  let stopped = false;
  const status = h("p", { class: "error", role: "alert" });
  const ratings = h("section", { class: "panel", "data-testid": "ratings", "aria-labelledby": "ratings-title" });
  const games = h("section", { class: "panel", "data-testid": "history", "aria-labelledby": "history-title" });
  const board = h("section", { class: "panel", "data-testid": "leaderboard", "aria-labelledby": "board-title" });
  const playing = h("section", { class: "panel", "data-testid": "my-tables", "aria-labelledby": "playing-title" });
  fill(root,
    h("header", { class: "bar" },
      h("a", { class: "link", href: "#/", onclick: (e: Event) => { e.preventDefault(); back(); } }, `← ${t("lobby")}`),
      h("h1", {}, t("my_games")),
      accountBar(),
      languageMenu()),
    status,
    h("div", { class: "lobby" }, playing, ratings, games, board));
  void (async () => {
    let variants: VariantInfo[] = [];
    try {
      variants = await variantList();
    } catch (err) {
      status.textContent = errorText(err);
      return;
    }
    if (stopped) return;
    const names = new Map(variants.map((v) => [v.id, v.name]));
    const game = (id: string): string => names.get(id) ?? id;
    void leaderboard(board, variants);
    if (account() === undefined) {
      fill(ratings, h("h2", { id: "ratings-title" }, t("ratings")), h("p", { class: "muted" }, t("sign_in_for_games")));
      fill(games, h("h2", { id: "history-title" }, t("finished_tables")));
      fill(playing, h("h2", { id: "playing-title" }, t("tables_in_play")));
      return;
    }
    void inPlay(playing, game);
    void profile(ratings, game);
    void history(games, game);
  })();
  return () => {
    stopped = true;
  };
}

/** The player's unfinished tables (from any device): its seat there, taken back here. */
async function inPlay(panel: HTMLElement, game: (id: string) => string): Promise<void> {
  const title = h("h2", { id: "playing-title" }, t("tables_in_play"));
  const problem = h("p", { class: "error", role: "alert" });
  const take = async (tableId: string, variant: string): Promise<void> => {
    try {
      if (!savedSeats().some((s) => s.tableId === tableId && s.seat !== undefined)) {
        // a fresh seat token for this device (the other device's stops working)
        const name = account()?.displayName ?? "";
        const seat = await client.rejoinMine(tableId);
        saveSeat({ tableId, token: seat.token, seat: seat.seat, name, variant, savedAt: Date.now() });
      }
      location.hash = `#/table/${tableId}`;
    } catch (err) {
      problem.textContent = errorText(err);
    }
  };
  try {
    const tables = await client.myTables();
    fill(panel, title,
      tables.length === 0 ? h("p", { class: "muted" }, t("no_tables_in_play")) : h("ul", { class: "listing" },
        tables.map((mine) => h("li", { "data-table": mine.tableId },
          h("strong", {}, game(mine.variant)), ` ${t("seat_n", { n: mine.seat + 1 })} `,
          h("button", { type: "button", "data-testid": `take-seat-${mine.tableId}`, onclick: () => void take(mine.tableId, mine.variant) },
            t("take_my_seat"))))),
      h("p", { class: "muted" }, t("take_my_seat_hint")),
      problem);
  } catch (err) {
    fill(panel, title, h("p", { class: "error" }, errorText(err)));
  }
}

async function profile(panel: HTMLElement, game: (id: string) => string): Promise<void> {
  const title = h("h2", { id: "ratings-title" }, t("ratings"));
  try {
    const me = await client.profile();
    fill(panel, title,
      h("p", {}, t("tables_played", { n: me.tables })),
      me.variants.length === 0 ? h("p", { class: "muted" }, t("no_games_yet")) : h("table", { class: "players-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("game")), h("th", { scope: "col" }, t("players")),
          h("th", { scope: "col" }, t("tables")), h("th", { scope: "col" }, t("rating")))),
        h("tbody", {}, me.variants.map((v) => h("tr", { "data-variant": `${v.variant}.${v.players}` },
          h("td", {}, game(v.variant)), h("td", {}, v.players), h("td", {}, v.tables),
          h("td", { "data-testid": `rating-${v.variant}-${v.players}` }, ratingText(v.rating)))))));
  } catch (err) {
    fill(panel, title, h("p", { class: "error" }, errorText(err)));
  }
}

async function history(panel: HTMLElement, game: (id: string) => string): Promise<void> {
  const title = h("h2", { id: "history-title" }, t("finished_tables"));
  const list = h("ol", { class: "listing", "data-testid": "history-list" });
  const more = h("button", { type: "button", "data-testid": "history-more", hidden: true }, t("more"));
  const problem = h("p", { class: "error" });
  fill(panel, title, list, more, problem);
  let token = "";
  const page = async (): Promise<void> => {
    more.disabled = true;
    try {
      const answer = await client.historyPage(PAGE, token);
      token = answer.nextPageToken;
      list.append(...answer.tables.map((played) => row(played, game)));
      if (list.childElementCount === 0) list.replaceWith(h("p", { class: "muted" }, t("no_games_yet")));
      more.hidden = token === "";
    } catch (err) {
      problem.textContent = errorText(err);
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", () => void page());
  await page();
}

function row(played: TablePlayed, game: (id: string) => string): HTMLElement {
  const when = played.finished === undefined ? ""
    : timestampDate(played.finished).toLocaleString(locale(), { dateStyle: "medium", timeStyle: "short" });
  const names = seatNames(played.seats.map((s) => ({ seat: s.seat, name: s.name, bot: s.bot })));
  const change = played.rated
    ? h("span", { class: "rating-change", "data-testid": "rating-change" }, `${t("rating")}: ${ratingText(played.ratingBefore)} → ${ratingText(played.ratingAfter)}`)
    : h("span", { class: "rating-change muted" }, t("unrated"));
  return h("li", { "data-table": played.tableId },
    h("strong", {}, `${game(played.variant)} · ${t("placing", { n: played.placing, of: played.players })}`),
    h("span", { class: "muted" }, ` ${when} · ${t("hands_count", { n: played.hands })} · ${t("score")}: ${played.score}`),
    change,
    h("ol", { class: "lobby-seats", "aria-label": t("seats") },
      played.seats.map((s, i) => h("li", { class: s.seat === played.seat ? "taken me" : "taken" }, `${names[i] ?? ""} ${s.score}`))),
    h("a", { href: `#/replay/${played.tableId}`, "data-testid": `replay-${played.tableId}` }, t("open_replay")));
}

async function leaderboard(panel: HTMLElement, variants: readonly VariantInfo[]): Promise<void> {
  const variant = h("select", { name: "board_variant", "aria-label": t("game") },
    variants.map((v) => h("option", { value: v.id }, v.name)));
  const players = h("select", { name: "board_players", "aria-label": t("players") });
  const list = h("div", { "data-testid": "leaderboard-list" });
  const me = account()?.playerId;
  const load = async (): Promise<void> => {
    try {
      const answer = await client.leaderboard(variant.value, Number(players.value), 50);
      fill(list, answer.entries.length === 0 ? h("p", { class: "muted" }, t("leaderboard_empty")) : h("table", { class: "players-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("player")), h("th", { scope: "col" }, t("rating")))),
        h("tbody", {}, answer.entries.map((e) => h("tr", { class: e.playerId === me ? "me" : "", "data-player": e.playerId },
          h("td", {}, e.rank), h("td", {}, e.name), h("td", {}, ratingText(e.rating)))))));
    } catch (err) {
      fill(list, h("p", { class: "error" }, errorText(err)));
    }
  };
  const refresh = (): void => {
    const chosen = variants.find((v) => v.id === variant.value) ?? variants[0];
    const counts = chosen?.playerCounts ?? [];
    fill(players, counts.map((n) => h("option", { value: n, selected: n === Math.max(...counts) }, String(n))));
    void load();
  };
  variant.addEventListener("change", refresh);
  players.addEventListener("change", () => void load());
  fill(panel, h("h2", { id: "board-title" }, t("leaderboard")), h("div", { class: "actions" }, variant, players), list);
  refresh();
}
