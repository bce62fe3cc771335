// Bundle src/main.ts (and the SDK it imports from ../typescript/src) into dist/, with the
// page's words read from the server's catalogues (tarok_service/locales, `web.*` entries) at
// every build: the bundle carries them, nothing generated is kept beside the sources.
import { build } from "esbuild";
import { webCatalogues } from "./i18n/po.mjs";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const locales = join(here, "..", "..", "tarok_service", "locales");

// One copy of the protobuf and Connect runtimes: resolve them from this package's
// node_modules also for the SDK sources in ../typescript/src.
const oneRuntime = {
  name: "one-runtime",
  setup(b) {
    b.onResolve({ filter: /^@(bufbuild|connectrpc)\// }, (args) => {
      if (args.pluginData === "one-runtime") return undefined;
      return b.resolve(args.path, { resolveDir: here, kind: args.kind, pluginData: "one-runtime" });
    });
  },
};

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.ts")],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: true,
  legalComments: "none",
  outfile: join(dist, "app.js"),
  plugins: [oneRuntime],
  define: { __TAROK_CATALOGUES__: JSON.stringify(webCatalogues(locales)) },
  logLevel: "warning",
});
await copyFile(join(here, "src", "index.html"), join(dist, "index.html"));
await copyFile(join(here, "src", "style.css"), join(dist, "style.css"));
console.log(`built ${dist}`);
