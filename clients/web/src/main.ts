// Routes: #/ is the lobby, #/table/<id> a table.
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const root = document.getElementById("app");
let stop: () => void = () => undefined;

function route(): void {
  if (root === null) return;
  stop();
  stop = () => undefined;
  const match = /^#\/table\/([\w-]+)$/.exec(location.hash);
  if (match?.[1] !== undefined) {
    stop = showTable(root, match[1], () => {
      location.hash = "#/";
    });
  } else {
    void showLobby(root, (tableId) => {
      location.hash = `#/table/${tableId}`;
    });
  }
}

window.addEventListener("hashchange", route);
route();
