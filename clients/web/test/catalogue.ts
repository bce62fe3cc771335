// The server's catalogues as the web's tests read them (the same reader build.mjs uses).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../../typescript/test/server.js";

export type Po = typeof import("../i18n/po.mjs");
export const LOCALE_DIR = join(ROOT, "tarok_service", "locales");
export const po: Po = (await import(pathToFileURL(join(ROOT, "clients", "web", "i18n", "po.mjs")).href)) as Po;
