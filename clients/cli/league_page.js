// The league page's "recompute in this browser" (clients/cli/league/view.py): checks the ledger
// embedded in the page with view_lib.js (aarLib: canonical msgpack, SPEC.md 7.4's Ed25519 rule,
// checkpoints, the Merkle tree) and recomputes the standings and the ratings with league_lib.js
// (leagueLib, SPEC.md 15.5-15.7) from the ledger's own entries and the games' statuses in the file.
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("league-data").textContent);
  const L = aarLib, Q = leagueLib;
  const te = new TextEncoder();
  const sha256 = async (b) => new Uint8Array(await crypto.subtle.digest("SHA-256", b));
  const tagged = (tag, bytes) => sha256(L.cat(te.encode(tag), new Uint8Array([0]), bytes));
  const hexOf = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  const FIELDS = ["at", "body", "by", "kind", "league", "prev", "seq", "sig", "v"];
  function show(v) {  // sorted keys, every integer as its decimal string: one spelling per value
    if (typeof v === "bigint" || typeof v === "number") return JSON.stringify(String(v));
    if (Array.isArray(v)) return `[${v.map(show).join(",")}]`;
    if (v instanceof Uint8Array) return JSON.stringify(hexOf(v));
    if (v !== null && typeof v === "object") {
      return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${show(v[k])}`).join(",")}}`;
    }
    return JSON.stringify(v);
  }

  const entryOf = (lg, name) => lg.registered.find((p) => p.player === name).entry;

  async function checkLedger(say) {
    const bytes = Uint8Array.from(atob(data.ledger), (c) => c.charCodeAt(0));
    const magic = te.encode("aar-league-v1\n");
    if (!L.eq(bytes.subarray(0, magic.length), magic)) throw new Error("not a league ledger (bad magic)");
    const file = L.strictDecode(bytes.subarray(magic.length));
    const vk = await L.parseVkey(file.vkey);
    const tree = new L.CompactTree();
    const league = { policy: null, registered: [], schedule: [], standings: null, last: null, cosigned: {} };
    const playerKeys = {};
    let prev = new Uint8Array(32), at = 0, origin = null, commit = null, organiser = null, version = null;
    for (const [i, item] of file.entries.entries()) {
      const e = L.strictDecode(item.raw);
      const where = `entry ${i} (${e.kind})`;
      if (!L.exactKeys(e, FIELDS) || Number(e.seq) !== i || !L.eq(e.prev, prev)
          || e.league !== file.league) throw new Error(`${where}: not the next entry of the ledger`);
      // SPEC.md 15.2: league version 1 or 2, the genesis's in every entry of the ledger
      if (i === 0) version = Number(e.v);
      if (version !== 1 && version !== 2) throw new Error(`${where}: unknown league version ${e.v}`);
      if (Number(e.v) !== version) throw new Error(`${where}: league version ${e.v} in a ledger of version ${version}`);
      if (Number(e.at) < at) throw new Error(`${where}: its time goes back`);
      at = Number(e.at);
      const h = await tagged("aar1/league-entry", item.raw);
      await tree.append(h);
      if (i === 0) origin = e.body.origin;
      const cp = await L.openCheckpoint(item.checkpoint, vk);
      if (cp.origin !== origin || cp.size !== i + 1 || cp.root !== await tree.root()) {
        throw new Error(`${where}: its checkpoint is not of the ledger up to it`);
      }
      const stmt = L.cat(te.encode("aar1/league-sign"), new Uint8Array([0]),
        L.encode({ body: e.body, kind: e.kind, league: e.league }));
      const why = await L.signatureProblem(e.by, stmt, e.sig);
      if (why !== null) throw new Error(`${where}: the author's signature does not verify: ${why}`);
      const b = e.body;
      // SPEC.md 15.3: version 2 added the genesis's organiser and each round's asked; version 1 has neither
      const extra = { genesis: "organiser", round: "asked" }[e.kind];
      if (extra && (extra in b) !== (version >= 2)) {
        throw new Error(`${where}: a league version ${version} ${e.kind} ${version >= 2 ? "needs" : "has no"} ${extra}`);
      }
      if (e.kind === "genesis") [commit, organiser] = [b.commit, b.organiser];
      if (e.kind === "policy") league.policy = b;
      if (e.kind === "player") {
        league.registered.push({ player: b.name, key: hexOf(b.key), entry: i });
        playerKeys[String(i)] = b.key;
      }
      // players' cosignatures of this checkpoint (SPEC.md 15.2: the seat is the registration's seq)
      const seats = Object.keys(playerKeys);
      for (const s of await L.seatCosignatures(item.checkpoint, cp.text, origin, seats, playerKeys)) {
        league.cosigned[league.registered.find((p) => String(p.entry) === s).player] = i + 1;
      }
      if (e.kind === "round") {
        const want = await tagged("aar1/league-seed", L.cat(L.lp(te.encode(e.league)), L.u32(Number(b.round)), b.seed));
        if (!L.eq(want, commit)) throw new Error(`${where}: the seed does not open its commitment`);
        if (version >= 2) {  // SPEC.md 15.4: the organiser the genesis names asked for this round, of this title, as this entry
          const asked = L.cat(te.encode("aar1/league-organiser"), new Uint8Array([0]),
            L.encode({ league: e.league, rpc: "OpenRound", size: BigInt(i), title: b.title }));
          const no = await L.signatureProblem(organiser, asked, b.asked);
          if (no !== null) throw new Error(`${where}: the organiser did not ask for this round: ${no}`);
        }
        commit = b.next;
        league.schedule.push({ round: Number(b.round), entry: i, title: b.title, pairings: b.pairings, byes: b.byes });
      }
      if (e.kind === "standings") league.standings = { entry: i, body: b };
      prev = h;
      league.last = i;
    }
    say(`the ledger (league version ${version}): ${file.entries.length} entries, canonical, chained, every `
      + `author's signature and every checkpoint (signature, size, Merkle root) verified; every round `
      + (version >= 2 ? "asked for by the organiser the genesis names, its seed" : "'s seed (version 1 names no organiser)")
      + ` opening its commitment`);
    const cos = Object.entries(league.cosigned).sort();
    if (show(league.cosigned) !== show(data.cosigned)) throw new Error("the players' cosignatures are not those shown");
    say("players' cosignatures of the league's checkpoints verified: "
      + (cos.map(([p, n]) => `${p} up to ${n} entries`).join(", ") || "none"));
    return league;
  }

  async function run() {
    const verdict = document.getElementById("verdict"), list = document.getElementById("checks");
    list.textContent = "";
    verdict.className = "";
    verdict.textContent = "checking...";
    const say = (text, bad) => {
      const li = document.createElement("li");
      li.textContent = text;
      if (bad) li.className = "bad";
      list.appendChild(li);
    };
    try {
      const lg = await checkLedger(say);
      if (lg.policy.pairing === "round-robin" && lg.schedule.length) {
        const roster = [...new Set([...lg.schedule[0].pairings.flat(), ...lg.schedule[0].byes])]
          .sort((a, b) => entryOf(lg, a) - entryOf(lg, b));
        for (const r of lg.schedule) {
          if (show(Q.berger(roster, r.round)) !== show([r.pairings, r.byes])) {
            throw new Error(`round ${r.round}: not the Berger table's pairings`);
          }
        }
        say("every round's pairings are the Berger table's");
      }
      const report = { policy: lg.policy, registered: lg.registered, schedule: lg.schedule, games: data.games };
      const { counted, table } = Q.standings(report);
      const state = Q.ratings(report, counted);
      const ratings = {};
      for (const [t, m] of Object.entries(state)) {
        const rows = [...m.entries()].sort((a, b) => entryOf(lg, a[0]) - entryOf(lg, b[0]));
        const played = (p) => counted.filter((c) => c.title === t && (c.first === p || c.second === p)).length;
        ratings[t] = rows.map(([player, [r, rd, sigma]]) => ({
          player, r, rd, sigma, games: played(player), provisional: rd > Q.big(lg.policy.rating.provisional) }));
      }
      const mine = show({ standings: table, ratings });
      if (mine !== show(data.shown)) {
        throw new Error("the standings or ratings shown on this page are not those recomputed");
      }
      say(`standings of ${table.length} players and the ratings recomputed from the ledger: the same as shown`);
      if (lg.standings !== null && lg.standings.entry === lg.last) {
        if (show({ standings: lg.standings.body.table, ratings: lg.standings.body.ratings }) !== mine) {
          throw new Error(`entry ${lg.standings.entry}: the league's published standings are not those recomputed`);
        }
        say(`the league's last published standings (entry ${lg.standings.entry}): the same`);
      } else if (lg.standings !== null) {
        say(`the league's last published standings (entry ${lg.standings.entry}) predate later entries: `
          + "aar league verify compared them");
      }
      verdict.className = "ok";
      verdict.textContent = "recomputed in this browser: the same";
    } catch (err) {
      say(String(err && err.message ? err.message : err), true);
      verdict.className = "bad";
      verdict.textContent = "recomputed in this browser: NOT the same";
    }
  }
  document.getElementById("recompute").addEventListener("click", run);
})();
