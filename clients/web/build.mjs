// Bundles the page (src/app/main.ts with the library and its npm dependencies) into
// static/app.js: one file, no CDN. `make web` runs it after `buf generate`.
import { build } from "esbuild";

await build({
  entryPoints: ["src/app/main.ts"],
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  outfile: process.argv[2] ?? "static/app.js",
  logLevel: "warning",
});
