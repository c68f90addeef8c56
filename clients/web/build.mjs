// Bundles the page (src/app/main.ts with the library and its npm dependencies) into
// static/app.js: one file, no CDN; and the library's Ed25519 rule (src/lib/ed25519.ts, SPEC.md 7.4)
// into ../cli/view_ed25519.js, the replay page's copy of it (`aar view` inlines it: one source for
// both pages). `make web` runs it after `buf generate`. Arguments: the two output files (the tests'
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
  entryPoints: ["src/lib/ed25519.ts"],
  bundle: true,
  format: "iife",
  globalName: "aarEd25519",
  target: "es2022",
  banner: { js: "// Generated from clients/web/src/lib/ed25519.ts by clients/web/build.mjs (`make web`): do not edit." },
  outfile: process.argv[3] ?? "../cli/view_ed25519.js",
  logLevel: "warning",
});
