// Bundles the page (src/app/main.ts with the library and its npm dependencies) into
// static/app.js: one file, no CDN; and what the replay page takes from the library (src/view_lib.ts:
// SPEC.md 7.4's Ed25519 rule, 4.5's seat cosignatures, 6.2's sealed values, canonical msgpack, the
// endings of 8.1-8.3) into ../cli/view_lib.js (`aar view` inlines it: one source for both pages). `make web` runs it after `buf generate`. Arguments: the two output files (the tests'
// temporary ones), by default the committed ones.
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

await build({
  entryPoints: ["src/view_lib.ts"],
  bundle: true,
  format: "iife",
  globalName: "aarLib",
  target: "es2022",
  banner: { js: "// Generated from clients/web/src/view_lib.ts by clients/web/build.mjs (`make web`): do not edit." },
  outfile: process.argv[3] ?? "../cli/view_lib.js",
  logLevel: "warning",
});
