// Routes: #/ is the lobby, #/table/<id> a table, #/replay/<id> a finished table's replay,
// #/games the signed-in player's games and ratings.
import { startAccount } from "./account.js";
import { pageLocale } from "./api.js";
import { locale, t, useCatalogues } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showMyGames } from "./mygames.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table.js";

useCatalogues(__TAROK_CATALOGUES__, pageLocale());
document.documentElement.lang = locale();
document.title = t("title");

const root = document.getElementById("app");
let stop: () => void = () => undefined;

function route(): void {
  if (root === null) return;
  stop();
  stop = () => undefined;
  const lobby = (): void => {
    location.hash = "#/";
  };
  const match = /^#\/(table|replay)\/([\w-]+)$/.exec(location.hash);
  if (match?.[1] === "table" && match[2] !== undefined) {
    stop = showTable(root, match[2], lobby);
  } else if (match?.[1] === "replay" && match[2] !== undefined) {
    stop = showReplay(root, match[2], lobby);
  } else if (location.hash === "#/games") {
    stop = showMyGames(root, lobby);
  } else {
    void showLobby(root, (tableId) => {
      location.hash = `#/table/${tableId}`;
    });
  }
}

void startAccount().then((problem) => {
  window.addEventListener("hashchange", route);
  route();
  if (problem !== "") root?.prepend(Object.assign(document.createElement("p"), { className: "error", role: "alert", textContent: problem }));
});
