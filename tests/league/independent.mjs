// A second implementation of SPEC.md 15.5-15.7, written from the SPEC's text in JavaScript
// (BigInt, no floats), sharing no code with engine/league/: it recomputes every vector of
// fixtures/league/vectors.json and, from a league report (`aar league verify --json`: its policy,
// registrations, schedule and games), the standings and the ratings the report publishes.
//
//     node tests/league/independent.mjs fixtures/league/vectors.json fixtures/league/spring.json
//
// Prints "agreed: N values" and exits 0, or names the first value that differs and exits 1.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";

// -- JSON with integers beyond 2^53: every integer of 16 digits or more is read as a BigInt ----------
function readJson(path) {
  const text = readFileSync(path, "utf8").replace(/([:\[,]\s*)(-?\d{16,})(?=\s*[,\]\}])/g, '$1"#$2"');
  return JSON.parse(text, (k, v) => (typeof v === "string" && v.startsWith("#") ? BigInt(v.slice(1)) : v));
}
const big = (v) => (typeof v === "bigint" ? v : BigInt(v));

// -- 15.7: fixed point, every division rounding toward minus infinity ------------------------------
const ONE = 10n ** 15n;
const LN2 = 693147180559945n;
const PI2 = 9869604401089358n;
function floorDiv(a, b) {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}
const fmul = (a, b) => floorDiv(a * b, ONE);
const fdiv = (a, b) => floorDiv(a * ONE, b);
function isqrt(n) {
  if (n < 0n) throw new Error("isqrt of a negative number");
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length + 1) >> 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
const fsqrt = (a) => isqrt(a * ONE);
function fexp(x) {
  const k = floorDiv(x, LN2);
  const r = x - k * LN2;
  let s = ONE, t = ONE;
  for (let i = 1n; ; i++) {
    t = floorDiv(t * r, i * ONE);
    if (t === 0n) break;
    s += t;
  }
  return k >= 0n ? s << k : s >> -k;
}
function fln(x) {
  let k = BigInt(x.toString(2).length - ONE.toString(2).length);
  let m;
  for (;;) {
    m = k >= 0n ? x >> k : x << -k;
    if (m >= 2n * ONE) k++;
    else if (m < ONE) k--;
    else break;
  }
  const z = fdiv(m - ONE, m + ONE), z2 = fmul(z, z);
  let s = 0n, t = z;
  for (let i = 0n; t !== 0n; i++) {
    s += floorDiv(t, 2n * i + 1n);
    t = fmul(t, z2);
  }
  return 2n * s + k * LN2;
}

const SCALE = 173717800000000000n, BASE = 1500n * ONE;
const g = (p) => fdiv(ONE, fsqrt(ONE + fdiv(3n * fmul(p, p), PI2)));
function period([r, rd, sigma], games, tau, eps) {
  const phi = fdiv(rd, SCALE);
  if (games.length === 0) return [r, fmul(SCALE, fsqrt(fmul(phi, phi) + fmul(sigma, sigma))), sigma];
  const mu = fdiv(r - BASE, SCALE);
  let vinv = 0n, S = 0n;
  for (const [[rj, rdj], s] of games) {
    const gj = g(fdiv(rdj, SCALE));
    const E = fdiv(ONE, ONE + fexp(-fmul(gj, mu - fdiv(rj - BASE, SCALE))));
    vinv += fmul(fmul(fmul(gj, gj), E), ONE - E);
    S += fmul(gj, s - E);
  }
  const v = fdiv(ONE, vinv), delta = fmul(v, S);
  const a = fln(fmul(sigma, sigma)), d2 = fmul(delta, delta), p2 = fmul(phi, phi), t2 = fmul(tau, tau);
  const f = (x) => {
    const e = fexp(x), D = p2 + v + e;
    return fdiv(fmul(e, d2 - p2 - v - e), 2n * fmul(D, D)) - fdiv(x - a, t2);
  };
  let A = a, B;
  if (d2 > p2 + v) B = fln(d2 - p2 - v);
  else {
    let k = 1n;
    while (f(a - k * tau) < 0n) k++;
    B = a - k * tau;
  }
  let fA = f(A), fB = f(B);
  for (let n = 0; (B - A < 0n ? A - B : B - A) > eps && n < 100; n++) {
    const C = A + fdiv(fmul(A - B, fA), fB - fA), fC = f(C);
    if ((fC < 0n) !== (fB < 0n) || fC === 0n || fB === 0n) { A = B; fA = fB; } else fA = floorDiv(fA, 2n);
    B = C; fB = fC;
  }
  const sigma2 = fexp(floorDiv(A, 2n));
  const phiStar = fsqrt(p2 + fmul(sigma2, sigma2));
  const phi2 = fdiv(ONE, fsqrt(fdiv(ONE, fmul(phiStar, phiStar)) + fdiv(ONE, v)));
  const mu2 = mu + fmul(fmul(phi2, phi2), S);
  return [fmul(SCALE, mu2) + BASE, fmul(SCALE, phi2), sigma2];
}

// -- 15.6: pairings ---------------------------------------------------------------------------
function berger(players, round) {
  const n = players.length;
  if (n < 2) return [[], [...players]];
  const np = n + (n % 2), m = np - 1, cycle = Math.floor((round - 1) / m), i = (round - 1) % m;
  const x = 1 + ((i * (np / 2)) % m);
  const boards = [i % 2 === 0 ? [x, np] : [np, x]];
  for (let j = 1; j < np / 2; j++) boards.push([((x - 1 + j) % m) + 1, (((x - 1 - j) % m) + m) % m + 1]);
  const pairs = [], byes = [];
  for (let [a, b] of boards) {
    if (cycle % 2 === 1) [a, b] = [b, a];
    if (a > n || b > n) byes.push(players[Math.min(a, b) - 1]);
    else pairs.push([players[a - 1], players[b - 1]]);
  }
  return [pairs, byes];
}
const u32 = (n) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const lp = (b) => Buffer.concat([u32(b.length), b]);
const tagged = (tag, data) => createHash("sha256").update(Buffer.concat([Buffer.from(tag + "\0"), data])).digest();
const orderKey = (league, round, seed, key) =>
  tagged("aar1/league-order", Buffer.concat([lp(Buffer.from(league)), u32(round), seed, key]));
const frac = ([n, d]) => [big(n), big(d)];
const fcmp = ([a, b], [c, d]) => (a * d < c * b ? -1 : a * d > c * b ? 1 : 0);
function swiss({ league, round, seed, players, points, byes_had, met, sides }) {
  const seedB = Buffer.from(seed, "hex");
  const keyed = players.map(([n, k]) => [n, orderKey(league, round, seedB, Buffer.from(k, "hex"))]);
  keyed.sort((p, q) => -fcmp(frac(points[p[0]] ?? [0, 1]), frac(points[q[0]] ?? [0, 1])) || Buffer.compare(p[1], q[1]));
  let names = keyed.map((p) => p[0]);
  const byes = [];
  if (names.length % 2 === 1) {
    const fewest = Math.min(...names.map((n) => byes_had[n] ?? 0));
    const bye = names.filter((n) => (byes_had[n] ?? 0) === fewest).at(-1);
    names = names.filter((n) => n !== bye);
    byes.push(bye);
  }
  const metSet = new Set(met.map(([a, b]) => [a, b].sort().join("\n")));
  let budget = 100000;
  const search = (rest) => {
    if (rest.length === 0) return [];
    for (let i = 1; i < rest.length; i++) {
      if (budget <= 0) return null;
      budget--;
      if (metSet.has([rest[0], rest[i]].sort().join("\n"))) continue;
      const tail = search([...rest.slice(1, i), ...rest.slice(i + 1)]);
      if (tail !== null) return [[rest[0], rest[i]], ...tail];
    }
    return null;
  };
  let found = search(names);
  if (found === null) {
    found = [];
    for (let i = 0; i < names.length; i += 2) found.push([names[i], names[i + 1]]);
  }
  const pairs = found.map(([a, b]) => {
    const sa = sides[a] ?? 0, sb = sides[b] ?? 0;
    return sa < sb || (sa === sb && round % 2 === 1) ? [a, b] : [b, a];
  });
  return [pairs, byes];
}

// -- 15.5: standings and ratings from a report's games ----------------------------------------------
const gcd = (a, b) => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const norm = ([n, d]) => { const c = gcd(n, d) || 1n; return [n / c, d / c]; };
const fadd = ([a, b], [c, d]) => norm([a * d + c * b, b * d]);
const fmulq = ([a, b], [c, d]) => norm([a * c, b * d]);
function standings(report) {
  const pol = report.policy, order = new Map(report.registered.map((p) => [p.player, p.entry]));
  const rows = new Map(report.registered.map((p) => [p.player, {
    player: p.player, points: [0n, 1n], buchholz: [0n, 1n], sb: [0n, 1n], games: 0, wins: 0, draws: 0,
    losses: 0, byes: 0, timeouts: 0, abandons: 0 }]));
  for (const r of report.schedule) for (const n of r.byes) {
    rows.get(n).byes++;
    rows.get(n).points = fadd(rows.get(n).points, frac(pol.points.bye));
  }
  const counted = report.games.filter((c) => c.status === "counted");
  for (const c of report.games) {
    if (c.status.startsWith("void: ruled")) continue;
    if (c.cause === "abandon") { rows.get(c.first).abandons++; rows.get(c.second).abandons++; }
  }
  const score = (c, n) => (c.winner === null ? [1n, 2n] : c.winner === n ? [1n, 1n] : [0n, 1n]);
  for (const c of counted) for (const n of [c.first, c.second]) {
    const pts = c.winner === null ? pol.points.draw : c.winner === n ? pol.points.win : pol.points.loss;
    rows.get(n).points = fadd(rows.get(n).points, frac(pts));
  }
  for (const c of counted) for (const [me, other] of [[c.first, c.second], [c.second, c.first]]) {
    const row = rows.get(me), s = score(c, me), op = rows.get(other).points;
    row.games++;
    row.buchholz = fadd(row.buchholz, op);
    row.sb = fadd(row.sb, fmulq(s, op));
    row[s[0] === 1n && s[1] === 1n ? "wins" : s[0] === 0n ? "losses" : "draws"]++;
  }
  const table = [...rows.values()].sort((a, b) => -fcmp(a.points, b.points) || -fcmp(a.buchholz, b.buchholz)
    || -fcmp(a.sb, b.sb) || b.wins - a.wins || order.get(a.player) - order.get(b.player));
  return { counted, table: table.map((r, i) => ({ ...r, rank: i + 1 })) };
}
function ratings(report, counted) {
  const order = new Map(report.registered.map((p) => [p.player, p.entry]));
  const rp = report.policy.rating, state = {}, played = {};
  for (const rnd of report.schedule) {
    const t = rnd.title.game, rated = (state[t] ??= new Map()), counts = (played[t] ??= new Map());
    const games = counted.filter((c) => c.round === rnd.round).sort((a, b) => a.board - b.board);
    const start = new Map(rated);
    for (const c of games) for (const n of [c.first, c.second]) if (!start.has(n)) start.set(n, [big(rp.r), big(rp.rd), big(rp.sigma)]);
    for (const n of [...start.keys()].sort((a, b) => order.get(a) - order.get(b))) {
      const mine = games.filter((c) => c.first === n || c.second === n).map((c) => {
        const other = c.first === n ? c.second : c.first;
        return [start.get(other), c.winner === null ? ONE / 2n : c.winner === n ? ONE : 0n];
      });
      rated.set(n, period(start.get(n), mine, big(rp.tau), big(rp.epsilon)));
      counts.set(n, (counts.get(n) ?? 0) + mine.length);
    }
  }
  return state;
}

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
same("swiss", swiss(V.swiss), [V.swiss.pairs, V.swiss.byes]);
const sc = V.seed_commitment;
same("seed commitment", tagged("aar1/league-seed", Buffer.concat([lp(Buffer.from(sc.league)), u32(sc.round),
  Buffer.from(sc.seed, "hex")])).toString("hex"), sc.commit);
if (reportPath) {
  const R = readJson(reportPath);
  const { counted, table } = standings(R);
  R.standings.forEach((row, i) => {
    const mine = table[i];
    same(`standings row ${i + 1}`, { ...row, points: frac(row.points), buchholz: frac(row.buchholz), sb: frac(row.sb) },
      { ...mine, timeouts: row.timeouts });  // time-outs need the end record's seat: not in the report
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
