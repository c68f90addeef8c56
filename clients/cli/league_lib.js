// The league's arithmetic (SPEC.md 15.5-15.7) in JavaScript, written from the SPEC's text alone and
// sharing no code with engine/league/: fixed point with BigInt (no floats), Glicko-2, Berger tables,
// a Swiss round (given its order keys), standings and ratings from a league's policy, registrations,
// schedule and games. `aar league view` inlines it into its page ("recompute in this browser");
// tests/league/independent.mjs runs it in node against fixtures/league/ and league reports.
"use strict";
var leagueLib = (() => {
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
  const big = (v) => (typeof v === "bigint" ? v : BigInt(v));
  const frac = ([n, d]) => [big(n), big(d)];
  const fcmp = ([a, b], [c, d]) => (a * d < c * b ? -1 : a * d > c * b ? 1 : 0);
  // ``orderKeys``: player -> the hex of tagged_hash("aar1/league-order", ...) (the caller hashes)
  function swiss({ round, players, points, byes_had, met, sides }, orderKeys) {
    const keyed = players.map(([n]) => [n, orderKeys[n]]);
    keyed.sort((p, q) => -fcmp(frac(points[p[0]] ?? [0, 1]), frac(points[q[0]] ?? [0, 1]))
      || (p[1] < q[1] ? -1 : p[1] > q[1] ? 1 : 0));
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
    if (c.cause === "timeout" && c.timed_out !== null) rows.get(c.timed_out).timeouts++;
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
      for (const c of games) {
        for (const n of [c.first, c.second]) if (!start.has(n)) start.set(n, [big(rp.r), big(rp.rd), big(rp.sigma)]);
      }
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

  return { ONE, floorDiv, fmul, fdiv, fsqrt, fexp, fln, period, berger, swiss, standings, ratings, frac, big };
})();
if (typeof module !== "undefined") module.exports = leagueLib;
