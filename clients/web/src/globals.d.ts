// Put in by build.mjs (esbuild `define`): the `web.*` words of every locale's catalogue.
declare const __TAROK_CATALOGUES__: Readonly<Record<string, Readonly<Record<string, string>>>>;
