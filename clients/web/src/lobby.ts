// The lobby: create a table (variant, players, options, bots), join one by id, resume a seat.
import { TableStatus } from "../../typescript/src/index.js";
import type { OptionInfo, TableSummary, VariantInfo } from "../../typescript/src/index.js";
import { client, connectionOk, errorText, forgetTable, languageMenu, saveSeat, savedSeats, variantList } from "./api.js";
import { accountBar } from "./account.js";
import { fill, h } from "./dom.js";
import { locale, t, wordOr } from "./i18n.js";
import { isStale, seatLines, tableTitle } from "./listing.js";
import { BOT_LEVELS, botWord } from "./names.js";
import { playNowPanel } from "./playnow.js";

const DEFAULT_LEVEL = "medium";
const CLOCKS = [0, 15, 30, 60, 120];

const NAME_KEY = "tarok.name";

function field(label: string, control: HTMLElement, hint = ""): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, label), control, hint ? h("small", {}, hint) : null);
}

/** A rule option's name in the page's language ("radelc_mode" -> "Whose radelc doubles"). */
function optionLabel(option: OptionInfo): string {
  return wordOr(`option_${option.name}`, option.name.replaceAll("_", " "));
}

function choiceLabel(choice: string): string {
  return choice === "true" ? t("yes") : choice === "false" ? t("no") : wordOr(`choice_${choice}`, choice);
}

function optionControl(option: OptionInfo): HTMLElement {
  const choices = option.allowed.filter((a) => !a.includes(".."));
  if (choices.length > 0) {
    return h(
      "select",
      { name: `option:${option.name}` },
      choices.map((c) => h("option", { value: c, selected: c === option.defaultValue }, choiceLabel(c))),
    );
  }
  return h("input", { name: `option:${option.name}`, value: option.defaultValue, size: 6 });
}

export async function showLobby(root: HTMLElement, openTable: (tableId: string) => void): Promise<void> {
  const status = h("p", { class: "error", role: "alert" });
  const createForm = h("form", { class: "panel", "data-testid": "create-form" });
  const joinForm = h("form", { class: "panel" });
  const mine = h("section", { class: "panel" });
  const listed = h("section", { class: "panel tables", "data-testid": "open-tables" });
  fill(
    root,
    h("header", { class: "bar" }, h("h1", {}, t("title")), h("span", { class: "muted" }, t("lobby")), accountBar(), languageMenu()),
    status,
    h("div", { class: "lobby" }, playNowPanel(openTable), createForm, listed, joinForm, mine),
  );

  let variants: VariantInfo[] = [];
  try {
    variants = await variantList();
    connectionOk();
  } catch (err) {
    status.textContent = `${t("cannot_reach_server")} ${errorText(err)}`;
    return;
  }

  const nameInput = h("input", {
    name: "name",
    value: localStorage.getItem(NAME_KEY) ?? "",
    placeholder: t("your_name_placeholder"),
    maxlength: 40,
    required: true,
  });
  const variantSelect = h(
    "select",
    { name: "variant" },
    variants.map((v) => h("option", { value: v.id }, v.name)),
  );
  const playersSelect = h("select", { name: "players" });
  const botsSelect = h("select", { name: "bots" });
  const botKind = h("select", { name: "bot" },
    BOT_LEVELS.map((b) => h("option", { value: b, selected: b === DEFAULT_LEVEL }, botWord(b))));
  const hands = h("input", { name: "hands", type: "number", min: 1, max: 100, value: 4 });
  const tableName = h("input", { name: "display_name", maxlength: 60, placeholder: t("optional") });
  const privateBox = h("input", { name: "private", type: "checkbox" });
  const clock = h("select", { name: "clock" },
    CLOCKS.map((c) => h("option", { value: c, selected: c === 0 }, c === 0 ? t("no_clock") : t("seconds_per_move", { n: c }))));
  const takeOver = h("input", { name: "bot_on_timeout", type: "checkbox" });
  const options = h("div", { class: "options" });

  const refresh = (): void => {
    const variant = variants.find((v) => v.id === variantSelect.value) ?? variants[0];
    if (variant === undefined) return;
    fill(playersSelect, variant.playerCounts.map((n) => h("option", { value: n }, String(n))));
    refreshBots();
    fill(
      options,
      // the server's description of an option is English: shown as the hint in English only
      variant.options.map((o) => field(optionLabel(o), optionControl(o), locale() === "en" ? o.doc : "")),
    );
  };
  const refreshBots = (): void => {
    const players = Number(playersSelect.value);
    const bots = Array.from({ length: players }, (_, i) => i);
    fill(botsSelect, bots.map((n) => h("option", { value: n, selected: n === players - 1 }, `${n}`)));
  };
  variantSelect.addEventListener("change", refresh);
  playersSelect.addEventListener("change", refreshBots);
  refresh();

  fill(
    createForm,
    h("h2", {}, t("new_table")),
    field(t("your_name"), nameInput),
    field(t("game"), variantSelect),
    field(t("players"), playersSelect),
    field(t("hands"), hands),
    field(t("bots_in_other_seats"), botsSelect),
    field(t("bot"), botKind),
    field(t("clock"), clock),
    h("label", { class: "check" }, takeOver, ` ${t("bot_on_timeout")}`),
    field(t("table_name"), tableName),
    h("label", { class: "check" }, privateBox, ` ${t("private_table")}`),
    h("details", {}, h("summary", {}, t("rules_options")), options),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, t("create_and_sit")),
  );
  createForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(createForm);
    const name = String(data.get("name") ?? "").trim();
    localStorage.setItem(NAME_KEY, name);
    const chosen: Record<string, string> = {};
    for (const [key, value] of data.entries()) {
      if (key.startsWith("option:")) chosen[key.slice(7)] = String(value);
    }
    const variant = variantSelect.value;
    void (async () => {
      try {
        const players = Number(playersSelect.value);
        const count = Number(botsSelect.value);
        const bots = Array.from({ length: count }, (_, i) => ({ seat: players - count + i, bot: botKind.value }));
        const tableId = await client.createTable({
          variant,
          players,
          hands: Number(hands.value),
          options: chosen,
          bots,
          displayName: tableName.value.trim(),
          private: privateBox.checked,
          timePerMoveMs: Number(clock.value) * 1000,
          botOnTimeout: takeOver.checked,
        });
        const seat = await client.join(tableId, { name, seat: 0 });
        saveSeat({ tableId, token: seat.token, seat: seat.seat, name, variant, savedAt: Date.now() });
        openTable(tableId);
      } catch (err) {
        status.textContent = errorText(err);
      }
    })();
  });

  const tableInput = h("input", { name: "table", placeholder: t("table_id"), required: true });
  const seatInput = h("input", { name: "seat", type: "number", min: 1, placeholder: t("any_seat") });
  fill(
    joinForm,
    h("h2", {}, t("join_table")),
    field(t("table_id"), tableInput),
    field(t("seat"), seatInput, t("seat_hint")),
    h("div", { class: "actions" },
      h("button", { type: "submit" }, t("join")),
      h("button", { type: "button", onclick: () => void watch() }, t("watch"))),
  );
  const watch = async (tableId = tableInput.value.trim()): Promise<void> => {
    try {
      const seat = await client.spectate(tableId);
      saveSeat({ tableId: seat.tableId, token: seat.token, seat: undefined, name: "spectator", variant: "", savedAt: Date.now() });
      openTable(seat.tableId);
    } catch (err) {
      status.textContent = errorText(err);
    }
  };
  const join = async (tableId: string, wanted: number | undefined, variant: string): Promise<void> => {
    const name = nameInput.value.trim() || t("guest");
    try {
      const seat = await client.join(tableId, { name, seat: wanted });
      saveSeat({ tableId: seat.tableId, token: seat.token, seat: seat.seat, name, variant, savedAt: Date.now() });
      openTable(seat.tableId);
    } catch (err) {
      status.textContent = errorText(err);
    }
  };
  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const wanted = seatInput.value === "" ? undefined : Number(seatInput.value) - 1;
    void join(tableInput.value.trim(), wanted, "");
  });
  const names = new Map(variants.map((v) => [v.id, v.name]));
  void listTables(listed, join, watch, (id) => names.get(id) ?? id);

  const seats = savedSeats();
  fill(
    mine,
    h("h2", {}, t("your_seats")),
    seats.length === 0
      ? h("p", { class: "muted" }, t("no_seats_yet"))
      : h(
          "ul",
          { class: "seats" },
          seats.map((s) =>
            h(
              "li",
              {},
              h("a", { href: `#/table/${s.tableId}` }, `${names.get(s.variant) ?? t("table")} ${s.tableId}`),
              ` ${s.seat === undefined ? t("watching") : t("seat_as", { n: s.seat + 1, name: s.name })} `,
              h("button", { type: "button", class: "link", onclick: () => { forgetTable(s.tableId); void showLobby(root, openTable); } }, t("forget")),
            ),
          ),
        ),
  );
}

/** The lobby's list: open tables to join, tables in play to watch (stale ones left out). */
async function listTables(
  panel: HTMLElement,
  join: (tableId: string, seat: number | undefined, variant: string) => Promise<void>,
  watch: (tableId: string) => Promise<void>,
  variantName: (id: string) => string,
): Promise<void> {
  const rows: TableSummary[] = [];
  try {
    for await (const table of client.tables({ filter: "state = open", pageSize: 100 })) {
      rows.push(table);
      if (rows.length >= 50) break;
    }
    for await (const table of client.tables({ filter: "state = playing", pageSize: 100 })) {
      rows.push(table);
      if (rows.length >= 100) break;
    }
  } catch (err) {
    fill(panel, h("h2", {}, t("tables")), h("p", { class: "error" }, errorText(err)));
    return;
  }
  const now = Date.now();
  const shown = rows.map((row) => ({ row, listed: {
    tableId: row.tableId,
    displayName: row.displayName,
    seats: row.seats,
    createdMs: row.createTime ? Number(row.createTime.seconds) * 1000 : undefined,
    seating: row.status === TableStatus.SEATING,
  } })).filter(({ listed }) => !isStale(listed, now));
  const clock = (s: TableSummary): string =>
    s.timePerMove ? ` · ${t("seconds_per_move", { n: Number(s.timePerMove.seconds) })}` : "";
  fill(
    panel,
    h("h2", {}, t("tables")),
    shown.length === 0
      ? h("p", { class: "muted" }, t("no_open_tables"))
      : h("ul", { class: "listing" }, shown.map(({ row, listed }) => {
          const free = row.seats.filter((s) => s.free).length;
          const game = variantName(row.variant);
          return h("li", { "data-table": row.tableId },
            h("strong", {}, tableTitle(listed, game)),
            h("span", { class: "muted" }, ` ${game} · ${t("hands_count", { n: row.hands })}${clock(row)}`),
            h("ol", { class: "lobby-seats", "aria-label": t("seats") }, seatLines(row.seats).map((s) =>
              h("li", { class: s.free ? "free" : "taken", "data-seat": s.seat }, s.text))),
            row.status === TableStatus.SEATING && free > 0
              ? h("button", { type: "button", onclick: () => void join(row.tableId, undefined, row.variant) },
                  t("sit_down_free", { n: free }))
              : null,
            h("button", { type: "button", class: "link", onclick: () => void watch(row.tableId) }, t("watch")));
        })),
  );
}
