// Runs the second implementation of SPEC.md 15.5-15.7 (clients/cli/league_lib.js, JavaScript written
// from the SPEC's text, sharing no code with engine/league/) in node: it recomputes every vector of
// fixtures/league/vectors.json and, from a league report (`aar league verify --json`: its policy,
// registrations, schedule and games), the standings and the ratings the report publishes.
//
//     node tests/league/independent.mjs fixtures/league/vectors.json fixtures/league/spring.json
//
// Prints "agreed: N values" and exits 0, or names the first value that differs and exits 1.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const leagueLib = createRequire(import.meta.url)("../../clients/cli/league_lib.js");
const { big, fexp, fln, fsqrt, period, berger, swiss, standings, ratings, frac } = leagueLib;

// -- JSON with integers beyond 2^53: every integer of 16 digits or more is read as a BigInt ----------
function readJson(path) {
  const text = readFileSync(path, "utf8").replace(/([:\[,]\s*)(-?\d{16,})(?=\s*[,\]\}])/g, '$1"#$2"');
  return JSON.parse(text, (k, v) => (typeof v === "string" && v.startsWith("#") ? BigInt(v.slice(1)) : v));
}

const u32 = (n) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const lp = (b) => Buffer.concat([u32(b.length), b]);
const tagged = (tag, data) => createHash("sha256").update(Buffer.concat([Buffer.from(tag + "\0"), data])).digest();
const orderKey = (league, round, seed, key) =>
  tagged("aar1/league-order", Buffer.concat([lp(Buffer.from(league)), u32(round), seed, key])).toString("hex");

// -- the checks ---------------------------------------------------------------------------------------
let agreed = 0;
function show(v) {  // JSON with sorted keys and BigInts as decimal strings
  if (typeof v === "bigint") return JSON.stringify(v.toString());
  if (Array.isArray(v)) return `[${v.map(show).join(",")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${show(v[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}
function same(what, got, want) {
  const a = show(got), b = show(want);
  if (a !== b) {
    console.log(`differs: ${what}: computed ${a}, published ${b}`);
    process.exit(1);
  }
  agreed++;
}
const [vectorsPath, reportPath] = process.argv.slice(2);
const V = readJson(vectorsPath);
for (const [x, y] of V.fexp) same(`fexp(${x})`, fexp(big(x)), big(y));
for (const [x, y] of V.fln) same(`fln(${x})`, fln(big(x)), big(y));
for (const [x, y] of V.fsqrt) same(`fsqrt(${x})`, fsqrt(big(x)), big(y));
for (const c of V.glicko2) {
  same("glicko2", period(c.player.map(big), c.games.map(([r, rd, s]) => [[big(r), big(rd)], big(s)]), big(c.tau),
    big(c.epsilon)), c.result.map(big));
}
for (const [n, rounds] of Object.entries(V.berger)) {
  const players = Array.from({ length: Number(n) }, (_, i) => String(i + 1));
  rounds.forEach((want, i) => same(`berger(${n}, ${i + 1})`, berger(players, i + 1), want));
}
const sw = V.swiss, seed = Buffer.from(sw.seed, "hex");
const keys = Object.fromEntries(sw.players.map(([n, k]) =>
  [n, orderKey(sw.league, sw.round, seed, Buffer.from(k, "hex"))]));
for (const [n] of sw.players) same(`order key ${n}`, keys[n], sw.order_keys[n]);
same("swiss", swiss(sw, keys), [sw.pairs, sw.byes]);
const sc = V.seed_commitment;
same("seed commitment", tagged("aar1/league-seed", Buffer.concat([lp(Buffer.from(sc.league)), u32(sc.round),
  Buffer.from(sc.seed, "hex")])).toString("hex"), sc.commit);
if (reportPath) {
  const R = readJson(reportPath);
  const { counted, table } = standings(R);
  R.standings.forEach((row, i) => {
    const mine = table[i];
    same(`standings row ${i + 1}`, { ...row, points: frac(row.points), buchholz: frac(row.buchholz), sb: frac(row.sb) },
      mine);
  });
  const st = ratings(R, counted);
  for (const [t, rows] of Object.entries(R.ratings)) {
    for (const x of rows) {
      const [r, rd, sigma] = st[t].get(x.player);
      same(`rating ${t} ${x.player}`, [r, rd, sigma], [big(x.r), big(x.rd), big(x.sigma)]);
    }
  }
}
console.log(`agreed: ${agreed} values`);
