// The lobby: create a table (variant, players, options, bots), join one by id, resume a seat.
import { errorInfo } from "../../typescript/src/index.js";
import { TableStatus } from "../../typescript/src/index.js";
import type { OptionInfo, TableSummary, VariantInfo } from "../../typescript/src/index.js";
import { client, connectionOk, forgetTable, languageMenu, saveSeat, savedSeats } from "./api.js";
import { fill, h } from "./dom.js";

const BOTS = ["heuristic", "random", "pimc"];
const CLOCKS = [0, 15, 30, 60, 120];

const NAME_KEY = "tarok.name";

function field(label: string, control: HTMLElement, hint = ""): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, label), control, hint ? h("small", {}, hint) : null);
}

function optionControl(option: OptionInfo): HTMLElement {
  const choices = option.allowed.filter((a) => !a.includes(".."));
  if (choices.length > 0) {
    return h(
      "select",
      { name: `option:${option.name}` },
      choices.map((c) => h("option", { value: c, selected: c === option.defaultValue }, c)),
    );
  }
  return h("input", { name: `option:${option.name}`, value: option.defaultValue, size: 6 });
}

function errorText(err: unknown): string {
  const info = errorInfo(err);
  return `${info.reason || info.codeName}: ${info.message}`;
}

export async function showLobby(root: HTMLElement, openTable: (tableId: string) => void): Promise<void> {
  const status = h("p", { class: "error", role: "alert" });
  const createForm = h("form", { class: "panel", "data-testid": "create-form" });
  const joinForm = h("form", { class: "panel" });
  const mine = h("section", { class: "panel" });
  const listed = h("section", { class: "panel tables", "data-testid": "open-tables" });
  fill(
    root,
    h("header", { class: "bar" }, h("h1", {}, "Tarok"), h("span", { class: "muted" }, "lobby"), languageMenu()),
    status,
    h("div", { class: "lobby" }, createForm, listed, joinForm, mine),
  );

  let variants: VariantInfo[] = [];
  try {
    variants = await client.variants();
    connectionOk();
  } catch (err) {
    status.textContent = `Cannot reach the server: ${errorText(err)}`;
    return;
  }

  const nameInput = h("input", {
    name: "name",
    value: localStorage.getItem(NAME_KEY) ?? "",
    placeholder: "your name",
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
  const botKind = h("select", { name: "bot" }, BOTS.map((b) => h("option", { value: b }, b)));
  const hands = h("input", { name: "hands", type: "number", min: 1, max: 100, value: 4 });
  const tableName = h("input", { name: "display_name", maxlength: 60, placeholder: "optional" });
  const privateBox = h("input", { name: "private", type: "checkbox" });
  const clock = h("select", { name: "clock" },
    CLOCKS.map((c) => h("option", { value: c, selected: c === 0 }, c === 0 ? "no clock" : `${c} s per move`)));
  const takeOver = h("input", { name: "bot_on_timeout", type: "checkbox" });
  const options = h("div", { class: "options" });

  const refresh = (): void => {
    const variant = variants.find((v) => v.id === variantSelect.value) ?? variants[0];
    if (variant === undefined) return;
    fill(playersSelect, variant.playerCounts.map((n) => h("option", { value: n }, `${n} players`)));
    refreshBots();
    fill(
      options,
      variant.options.map((o) => field(o.name.replaceAll("_", " "), optionControl(o), o.doc)),
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
    h("h2", {}, "New table"),
    field("Your name", nameInput),
    field("Game", variantSelect),
    field("Players", playersSelect),
    field("Hands", hands),
    field("Bots in the other seats", botsSelect),
    field("Bot", botKind),
    field("Clock", clock),
    h("label", { class: "check" }, takeOver, " a bot takes over a seat that runs out of time"),
    field("Table name", tableName),
    h("label", { class: "check" }, privateBox, " private (not listed; share the table id)"),
    h("details", {}, h("summary", {}, "Rules options"), options),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, "Create and sit down"),
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
          displayName: tableName.value.trim() || `${name}'s table`,
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

  const tableInput = h("input", { name: "table", placeholder: "table id", required: true });
  const seatInput = h("input", { name: "seat", type: "number", min: 0, placeholder: "any" });
  fill(
    joinForm,
    h("h2", {}, "Join a table"),
    field("Table id", tableInput),
    field("Seat", seatInput, "empty: the first free seat"),
    h("button", { type: "submit" }, "Join"),
    h("button", { type: "button", onclick: () => void watch() }, "Watch"),
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
    const name = nameInput.value.trim() || "guest";
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
    const wanted = seatInput.value === "" ? undefined : Number(seatInput.value);
    void join(tableInput.value.trim(), wanted, "");
  });
  void listTables(listed, join, watch);

  const seats = savedSeats();
  fill(
    mine,
    h("h2", {}, "Your seats"),
    seats.length === 0
      ? h("p", { class: "muted" }, "None yet: tables you join are kept here to come back to.")
      : h(
          "ul",
          { class: "seats" },
          seats.map((s) =>
            h(
              "li",
              {},
              h("a", { href: `#/table/${s.tableId}` }, `${s.variant || "table"} ${s.tableId}`),
              ` ${s.seat === undefined ? "watching" : `seat ${s.seat + 1}`} as ${s.name} `,
              h("button", { type: "button", class: "link", onclick: () => { forgetTable(s.tableId); void showLobby(root, openTable); } }, "forget"),
            ),
          ),
        ),
  );
}

/** The lobby's list: open tables to join, tables in play to watch. */
async function listTables(
  panel: HTMLElement,
  join: (tableId: string, seat: number | undefined, variant: string) => Promise<void>,
  watch: (tableId: string) => Promise<void>,
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
    fill(panel, h("h2", {}, "Tables"), h("p", { class: "error" }, errorText(err)));
    return;
  }
  const clock = (t: TableSummary): string =>
    t.timePerMove ? ` · ${Number(t.timePerMove.seconds)} s per move` : "";
  fill(
    panel,
    h("h2", {}, "Tables"),
    rows.length === 0
      ? h("p", { class: "muted" }, "No open tables: create one.")
      : h("ul", { class: "listing" }, rows.map((t) => {
          const free = t.seats.filter((s) => s.free).length;
          const who = t.seats.map((s) => (s.free ? "·" : s.bot ? `${s.name} (bot)` : s.name)).join(", ");
          return h("li", { "data-table": t.tableId },
            h("strong", {}, t.displayName || t.tableId),
            h("span", { class: "muted" }, ` ${t.variant}, ${t.players} players, ${t.hands} hand${t.hands === 1 ? "" : "s"}${clock(t)}`),
            h("div", { class: "muted" }, who),
            t.status === TableStatus.SEATING && free > 0
              ? h("button", { type: "button", onclick: () => void join(t.tableId, undefined, t.variant) }, `Sit down (${free} free)`)
              : null,
            h("button", { type: "button", class: "link", onclick: () => void watch(t.tableId) }, "watch"));
        })),
  );
}
