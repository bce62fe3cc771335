// The lobby: create a table (variant, players, options, bots), join one by id, resume a seat.
import { errorInfo } from "../../typescript/src/index.js";
import type { OptionInfo, VariantInfo } from "../../typescript/src/index.js";
import { client, connectionOk, forgetTable, saveSeat, savedSeats } from "./api.js";
import { addBots } from "./bots.js";
import { fill, h } from "./dom.js";

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
  fill(
    root,
    h("header", { class: "bar" }, h("h1", {}, "Tarok"), h("span", { class: "muted" }, "lobby")),
    status,
    h("div", { class: "lobby" }, createForm, joinForm, mine),
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
  const hands = h("input", { name: "hands", type: "number", min: 1, max: 100, value: 4 });
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
    field("Bots in the empty seats", botsSelect, "random bots, played by this page"),
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
        const tableId = await client.createTable({
          variant,
          players: Number(playersSelect.value),
          hands: Number(hands.value),
          options: chosen,
        });
        const seat = await client.join(tableId, { name, seat: 0 });
        saveSeat({ tableId, token: seat.token, seat: seat.seat, name, variant, bot: false, savedAt: Date.now() });
        await addBots(tableId, variant, Number(botsSelect.value));
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
  const watch = async (): Promise<void> => {
    try {
      const seat = await client.spectate(tableInput.value.trim());
      saveSeat({ tableId: seat.tableId, token: seat.token, seat: undefined, name: "spectator", variant: "", bot: false, savedAt: Date.now() });
      openTable(seat.tableId);
    } catch (err) {
      status.textContent = errorText(err);
    }
  };
  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = nameInput.value.trim() || "guest";
    void (async () => {
      try {
        const wanted = seatInput.value === "" ? undefined : Number(seatInput.value);
        const seat = await client.join(tableInput.value.trim(), { name, seat: wanted });
        saveSeat({ tableId: seat.tableId, token: seat.token, seat: seat.seat, name, variant: "", bot: false, savedAt: Date.now() });
        openTable(seat.tableId);
      } catch (err) {
        status.textContent = errorText(err);
      }
    })();
  });

  const seats = savedSeats().filter((s) => !s.bot);
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
