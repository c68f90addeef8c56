"use strict";
// The replay page of `aar view` (clients/cli/view.py). Everything below runs in the browser,
// offline. It checks the log itself with WebCrypto and view_lib.js (SPEC.md sections 1-8, 10):
// canonical record encoding, the hash chain, every checkpoint (Ed25519 signature, origin, size,
// Merkle root, seat cosignatures), the seat keys, every seat signature and envelope (v2: its
// state_seq and prev), the entropy handshake, (v2) every ciphertext's padded length, the endings
// (SPEC.md 8.1-8.3: the web library's endings.ts, view_lib.js's PageEndings), the end record, the
// server secret, every die, every opening, and once the game has ended every sealed value (opened
// with the published secret: ChaCha20-Poly1305 from view_lib.js).
// It takes from the file, and says so: the rules replay (board pictures, decisions) and, in a
// game in progress, the chosen seat's own openings (each checked against its commitment).
(function () {
  const DATA = JSON.parse(document.getElementById("aar-data").textContent);
  // bytes, canonical msgpack (SPEC.md 1.1), HMAC with SPEC.md's tags, the log's hashes and
  // commitments (derive.ts), Ed25519 by the rule of SPEC.md 7.4: the web library's, through view_lib.js
  const {
    td, b64, hex, cat, eq, u32, u64, lp, utf8, isBytes, isMap, exactKeys, encode, strictDecode, taggedHmac,
    recordHash, commandMessage, secretCommitment, valueCommitment, ed25519Verify: ed25519,
  } = window.aarLib;

  // -- protobuf, generically from the descriptors the CLI embedded (DATA.proto) ---------------
  function pbDecode(buf, msgName) {
    const fields = (DATA.proto.messages[msgName]) || {};
    const out = {}; let p = 0;
    const varint = () => { let x = 0n, s = 0n; for (;;) { if (p >= buf.length) throw new Error("truncated varint"); const b = buf[p++]; x |= BigInt(b & 0x7f) << s; s += 7n; if (!(b & 0x80)) return x; } };
    while (p < buf.length) {
      const key = Number(varint()), num = key >>> 3, wt = key & 7;
      const f = fields[String(num)], name = f ? f[0] : ("#" + num), type = f ? f[1] : 0;
      let v;
      if (wt === 0) { const x = varint(); v = (type === 8) ? x !== 0n : (type === 17 || type === 18) ? ((x >> 1n) ^ -(x & 1n)) : (type === 5 || type === 3) ? BigInt.asIntN(64, x) : x; v = (typeof v === "bigint" && v <= 2n ** 53n && v >= -(2n ** 53n)) ? Number(v) : v; }
      else if (wt === 2) { const n = Number(varint()); if (p + n > buf.length) throw new Error("truncated field"); const b = buf.subarray(p, p + n); p += n; v = type === 9 ? td.decode(b) : type === 11 ? pbDecode(b, f[2]) : b.slice(); }
      else if (wt === 1) { p += 8; v = "(64-bit)"; } else if (wt === 5) { p += 4; v = "(32-bit)"; }
      else throw new Error("wire type " + wt);
      if (name in out) { out[name] = [].concat(out[name], [v]); } else out[name] = v;
    }
    return out;
  }

  // -- the checks --------------------------------------------------------------------------
  const R = DATA.records.map(([raw, cp]) => ({ raw: b64(raw), cp }));
  const N = R.length;
  const checks = R.map(() => []);     // per record: {ok, what, by: "page"|"file"}
  const rolls = {};                   // "seq:eventIndex" -> derivation
  const hiddenAt = new Map();         // "seq:k" -> {seq, k, to, commit, value, openedAt, okCommit}
  const openRecords = new Map();      // "seq:k" -> first record with a public open
  const counts = { chain: 0, checkpoints: 0, signatures: 0, dice: 0, openings: 0, sealed: 0, failed: 0 };
  let endSeq = null, genesis = null, ends = null;
  const mark = (seq, ok, what) => { checks[seq].push({ ok, what }); if (ok === false) counts.failed++; };

  // SPEC.md 6.5 (v >= 2): every ciphertext of a kind is its declared size + 16 bytes; public, so
  // checked here before any secret is known (kind "command" for the seat that sent it, "event" for its `to`)
  function ctLength(seq, what, kind, seat, ct) {
    if (!genesis || genesis.v < 2) return;
    const c = window.aarLib.sealedLength(genesis.body.sealed_sizes, kind, seat, ct);  // genesis.ts
    mark(seq, c.ok, what + ": " + c.what);
  }

  async function checkAll() {
    // the file's server key (its id recomputed, SPEC.md 7.4's key rule) and, below, every checkpoint
    // it signs (SPEC.md 4.2): the web library's crypto.ts, through view_lib.js
    let server;
    try { server = await window.aarLib.parseVkey(DATA.server_vkey); } catch (e) {
      mark(0, false, "the file's server key " + DATA.server_vkey + ": " + e.message + ": nothing can be checked against it");
      return;
    }
    const secret = DATA.secret ? b64(DATA.secret) : null;
    let prev = new Uint8Array(32), game = null, origin = null, diceKey = null, nextRoll = 0;
    const seats = {}, seatOrder = [], counter = {}, commitments = new Map();
    let hs = null;  // SPEC.md 5.2: the web library's handshake.ts
    const tree = new window.aarLib.CompactTree();  // RFC 9162's Merkle tree (SPEC.md 4): the web library's crypto.ts
    for (let seq = 0; seq < N; seq++) {
      const r = R[seq];
      const h = await recordHash(r.raw);
      r.hash = h;
      // Merkle tree and checkpoint (SPEC.md 4)
      await tree.append(h);
      const root = await tree.root();  // base64, as a checkpoint gives it
      let rec;
      // SPEC.md 1.2 (at most 1 MiB, canonical, the six fields of their types, genesis's version): record.ts's
      try { rec = window.aarLib.readRecord(r.raw, genesis ? genesis.v : null); } catch (e) {
        mark(seq, false, "record bytes are not a record: " + e.message);
        await checkCp(seq, r.cp, root, server, origin, seatOrder, seats);
        prev = h;  // the next record's chain check still runs
        continue;
      }
      r.rec = rec;
      // chain (SPEC.md 3)
      const chainOk = rec.seq === seq && isBytes(rec.prev) && eq(rec.prev, prev) && (seq === 0 || rec.game === game);
      mark(seq, chainOk, chainOk ? "hash chain: seq " + seq + ", prev = hash of record " + (seq - 1) : "hash chain broken: seq " + rec.seq + ", prev " + (isBytes(rec.prev) ? hex(rec.prev).slice(0, 16) : "?") + "... does not follow record " + (seq - 1));
      if (chainOk) counts.chain++;
      prev = h;
      if (seq === 0) {
        genesis = rec; game = rec.game; origin = window.aarLib.gameOrigin(server.name, game);  // SPEC.md 4.2
        // SPEC.md 1.3: the body's keys and types, the seats (their keys by SPEC.md 7.4's rule), (v2) the
        // sealed sizes, the optional match and clock + at: the web library's genesis.ts
        const g = rec.body, gwhy = window.aarLib.genesisProblem(rec.v, g);
        mark(0, gwhy === null, gwhy || "the genesis body is as SPEC.md 1.3 gives it: exactly its keys, of their types, every seat's key passing the key rule of SPEC.md 7.4 and no other seat's"
             + (rec.v >= 2 ? ", the sealed sizes of 6.5" : "") + ("match" in g ? ", its match data" : "") + ("clock" in g ? ", its time control and start time (SPEC.md 8.2)" : ""));
        for (const s of Array.isArray(g.seats) ? g.seats.filter(isMap) : []) { seats[s.name] = s.key; seatOrder.push(s.name); counter[s.name] = 0; }
        ends = new window.aarLib.PageEndings(rec, seatOrder, mark);
        hs = window.aarLib.pageHandshake(game, { v: rec.v, body: g, hash: R[0].hash }, seatOrder);  // SPEC.md 8.1-8.3: the web library's endings.ts
        const gs = isMap(g.server) ? g.server : {};
        mark(0, rec.kind === "genesis" && gs.vkey === DATA.server_vkey && gs.origin === origin, "genesis names the server key of the file (key id " + server.id + " recomputed) and the origin " + origin + " (SPEC.md 4.2)");
        if (secret) {
          const c = await secretCommitment(game, secret);
          mark(0, eq(c, rec.body.secret_commit), "the published server secret matches genesis's secret_commit (SPEC.md 5.1)");
        }
      }
      await checkCp(seq, r.cp, root, server, origin, seatOrder, seats);
      if (seq === 0) continue;
      const b = rec.body;
      if (endSeq !== null) mark(seq, false, "a record after the end record " + endSeq + " (SPEC.md 8)");
      if (rec.kind === "genesis") mark(seq, false, "a second genesis record");
      const handshakeDone = !hs || hs.done;
      if (rec.kind === "end") {
        endSeq = seq;
        const before = R[seq - 1].rec;
        r.cause = ends.end(seq, b, before ? before.kind : "unreadable");  // keys, the record before, the cause
        const o = b.outcome;
        const okOutcome = !!o && typeof o === "object" && !Array.isArray(o) && !isBytes(o) && typeof o.reason === "string" && (o.winner === null || (typeof o.winner === "string" && o.winner in seats));
        mark(seq, okOutcome, "the outcome names a winner that is a seat of genesis (or none: a draw) and a reason (SPEC.md 1.3)");
        if (secret) mark(seq, isBytes(b.secret) && eq(b.secret, secret), "the end record publishes the secret the file carries");
        continue;
      }
      // seats (SPEC.md 7)
      const bkeys = (b.sealed ? ["seat", "ctr", "sealed", "events"] : ["seat", "ctr", "env", "sig", "events"]).concat(ends.bodyKeys);
      mark(seq, exactKeys(b, bkeys) && (!b.sealed || exactKeys(b.sealed, ["commit", "ct"])),
           "the " + rec.kind + " body has exactly the keys " + bkeys.join(", ") + " (SPEC.md 1.3)");
      const seat = b.seat;
      mark(seq, seat in seats && b.ctr === counter[seat] + 1, "seat " + seat + " counter " + b.ctr + " follows " + counter[seat]);
      if (seat in seats) counter[seat] = b.ctr;
      let env = null, envBytes = null, sig = null;
      if (b.sealed) {
        commitments.set(seq + ":0", b.sealed.commit);
        ctLength(seq, "sealed command", "command", seat, b.sealed.ct);
        const op = await sealedOpening(seq, 0, "command", seat, b.sealed.commit, b.sealed.ct, secret, game, "the sealed command");
        if (op && !op.failed) {
          const v = await checkOpening(seq, 0, b.sealed.commit, op.salt, op.vb, secret, game, "the sealed command", op.src);
          hiddenAt.set(seq + ":0", { seq, k: 0, to: seat, commit: b.sealed.commit, value: v, cmd: true });
          if (v && isBytes(v.env)) { envBytes = v.env; sig = v.sig; }
        } else {
          hiddenAt.set(seq + ":0", { seq, k: 0, to: seat, commit: b.sealed.commit, value: undefined, cmd: true });
          if (!op) unopened(seq, seq + ":0", "sealed command: its envelope is hidden until the end of the game");
        }
      } else { envBytes = b.env; sig = b.sig; }
      if (envBytes) {
        const ok = seat in seats && await ed25519(seats[seat], sig, commandMessage(envBytes));
        mark(seq, ok, "Ed25519 signature of seat " + seat + " over its envelope (genesis key)");
        if (ok) counts.signatures++;
        try { env = pbDecode(envBytes, DATA.proto.root); } catch (e) { mark(seq, false, "envelope does not parse: " + e.message); }
        if (env) {
          const v2 = genesis.v >= 2;
          // SPEC.md 7.1: the web library's envelope.ts, on what the page's reader gives (pageEnvelope)
          const why = window.aarLib.envelopeProblem(window.aarLib.pageEnvelope(env), game, genesis.v, rec.kind, seq, seat, b.ctr, rec.prev,
                                                    ends.tail((n) => (R[n] && R[n].hash) || null));  // v3: past other seats' offers (SPEC.md 8.1)
          mark(seq, why === null, why || "envelope names this game, seat, counter and the action of a " + rec.kind + " record" + (rec.kind === "command" || v2 ? ", state " + seq : "")
               + (v2 ? ", bound to the history its seat verified: its prev is the hash of record " + (seq - 1) + " (SPEC.md 7.1)" : ""));
          r.env = env;
        }
      }
      // the one command that may come before the handshake's end is a resignation (SPEC.md 5.2, 8.1)
      if (rec.kind === "command" && !handshakeDone && !ends.isResignation(b.sealed ? null : env)) mark(seq, false, "a game command before the dice handshake completed (SPEC.md 5.2)");
      if (hs && rec.kind === "commit" && env && env.entropy_commit)
        await window.aarLib.marked(mark, seq, () => hs.commit(seq, seat, env.entropy_commit.commitment || new Uint8Array(0), b.events),
                                   "the entropy commitment of " + seat + ": 32 bytes, before any reveal, its event the signed one (SPEC.md 5.2)");
      if (hs && rec.kind === "reveal" && env && env.entropy_reveal) {
        await window.aarLib.marked(mark, seq, () => hs.reveal(seat, env.entropy_reveal.entropy || new Uint8Array(0), env.state_seq || 0, b.events),
                                   "entropy of " + seat + " matches its commitment, after every commitment, its events the signed ones (SPEC.md 5.2)");
        if (hs.done && secret && !diceKey) {
          diceKey = await taggedHmac(secret, "aar1/dice-key", cat(lp(utf8(game)), ...seatOrder.map((s) => cat(lp(utf8(s)), hs.revealed.get(s)))));
          r.diceKey = diceKey;
        }
      }
      ends.seat(seq, rec.kind, b, b.sealed ? null : env, rec.kind === "reveal" && !handshakeDone && !!hs && hs.done, handshakeDone);
      // events: sealed values, openings, dice
      const evs = Array.isArray(b.events) ? b.events : [];
      // SPEC.md 1.4: setup's and a game command's events hold no core event of the handshake or an
      // ending (record.ts placementProblem, as the web seat's verifier): from the first event that is
      // not the record's own (a commit's are all its own; a reveal's first, and the start of the one
      // that completes the handshake; an ending command's first)
      const own = rec.kind === "commit" ? evs.length : rec.kind === "reveal" ? (!handshakeDone && !!hs && hs.done ? 2 : 1)
        : (env && env.ending ? 1 : 0);
      const misplaced = window.aarLib.placementProblem(evs, own);
      if (misplaced) mark(seq, false, misplaced);
      for (let i = 0; i < evs.length; i++) {
        const ev = evs[i];
        const why = window.aarLib.eventProblem(ev, i, seatOrder);  // SPEC.md 1.4's shapes: record.ts
        if (why) { mark(seq, false, why); continue; }
        if (ev.t === "sealed") {
          const key = seq + ":" + ev.k;
          commitments.set(key, ev.commit);
          ctLength(seq, "sealed value " + key, "event", ev.to, ev.ct);
          const what = "sealed value " + key + " (to " + ev.to + ")";
          const op = await sealedOpening(seq, ev.k, "event", ev.to, ev.commit, ev.ct, secret, game, what);
          let v;
          if (op && !op.failed) v = await checkOpening(seq, ev.k, ev.commit, op.salt, op.vb, secret, game, what, op.src);
          else if (!op) unopened(seq, key, null);
          hiddenAt.set(key, { seq, k: ev.k, to: ev.to, commit: ev.commit, value: v });
          const core = v !== undefined ? window.aarLib.hiddenCoreEvent(v) : null;   // SPEC.md 1.4: the ruleset's event or a roll
          if (core) mark(seq, false, "step 9: sealed value " + key + " is a " + core + " event, never a hidden value (SPEC.md 1.4)");
          if (v && v.t === "roll") { nextRoll = await checkRoll(seq, i, v, diceKey, nextRoll); }
        } else if (ev.t === "open") {
          const key = ev.ref[0] + ":" + ev.ref[1];
          const c = commitments.get(key);
          const got = await valueCommitment(ev.salt, encode(ev.value));
          const ok = !!c && eq(c, got);
          mark(seq, ok, "opening of " + key + " matches its commitment (SHA-256 of salt || canonical value)");
          const core = ev.ref[1] > 0 ? window.aarLib.hiddenCoreEvent(ev.value) : null;   // k = 0: a sealed command's envelope
          if (core) mark(seq, false, "step 7: opening " + i + " publishes a " + core + " event as a hidden value (SPEC.md 1.4)");
          if (ok) counts.openings++;
          if (!openRecords.has(key)) openRecords.set(key, seq);
        } else if (ev.t === "roll") {
          nextRoll = await checkRoll(seq, i, ev, diceKey, nextRoll);
        }
      }
    }
  }

  // A sealed value without an opening in a game in progress: not yet openable (with the published
  // secret the page opens every one itself, sealedOpening)
  function unopened(seq, key, inProgress) {
    if (inProgress) mark(seq, null, inProgress);
  }

  async function checkCp(seq, note, root, server, origin, seatOrder, seats) {
    let cp;
    try {
      cp = await window.aarLib.openCheckpoint(note, server);
      const ok = cp.origin === origin && cp.size === seq + 1 && cp.root === root;
      mark(seq, ok, ok ? "checkpoint " + (seq + 1) + " signed by the server (Ed25519), origin, size and Merkle root recomputed" : "checkpoint does not match: origin/size/root differ from the recomputed tree");
      if (ok) counts.checkpoints++;
    } catch (e) { mark(seq, false, "checkpoint: " + e.message); return; }
    // the seats' cosignatures it carries (SPEC.md 4.5: view_lib.js, the web library's check)
    try {
      const who = await window.aarLib.seatCosignatures(note, cp.text, origin, seatOrder, seats);
      if (who.length) mark(seq, true, "checkpoint " + (seq + 1) + " cosigned by seat " + who.join(" and seat ") + " (C2SP tlog-cosignature, SPEC.md 4.5): verified");
    } catch (e) { mark(seq, false, "seat cosignature: " + e.message); }
  }

  // SPEC.md 6.2, 6.5: with the published server secret the page opens every sealed value itself
  // (view_lib.js: the web library's ChaCha20-Poly1305, the padding, the commitment); before the end
  // it can only take the chosen seat's own openings from the file. {salt, vb, src}, {failed}, or null.
  async function sealedOpening(seq, k, kind, owner, commit, ct, secret, game, what) {
    const op = DATA.openings[seq + ":" + k];
    const file = op ? { salt: b64(op[0]), vb: b64(op[1]) } : null;
    if (!secret) return file ? { salt: file.salt, vb: file.vb, src: "taken from the file" } : null;
    const sizes = genesis.v >= 2 ? (genesis.body.sealed_sizes || {})[kind] || {} : null;
    const size = sizes === null ? null : Object.prototype.hasOwnProperty.call(sizes, owner) ? sizes[owner] : -1;
    try {
      const o = await window.aarLib.openSealed(secret, game, seq, k, commit, ct, size);
      mark(seq, !file || (eq(file.salt, o.salt) && eq(file.vb, o.valueBytes)), what + ": opened in this browser with the published server secret (ChaCha20-Poly1305, SPEC.md 6.2)" + (file ? ", the same as the file's opening" : ""));
      return { salt: o.salt, vb: o.valueBytes, src: "opened in this browser" };
    } catch (e) {
      mark(seq, false, what + " does not open with the published server secret: " + e.message + " (checked in this browser, SPEC.md 6.2)");
      return { failed: true };
    }
  }

  async function checkOpening(seq, k, commit, salt, valueBytes, secret, game, what, src) {
    let v;
    try { v = strictDecode(valueBytes); } catch (e) { mark(seq, false, what + ": the opening " + (src || "taken from the file") + " is not canonical"); return undefined; }
    const got = await valueCommitment(salt, valueBytes);
    let ok = eq(got, commit);
    if (secret) ok = ok && eq(salt, await taggedHmac(secret, "aar1/salt", cat(lp(utf8(game)), u64(seq), u32(k))));
    mark(seq, ok, what + ": the opening " + (src || "taken from the file") + " matches the commitment" + (secret ? " and its salt is the server secret's" : ""));
    if (ok) counts.sealed++;
    return ok ? v : undefined;
  }

  const DICE = { d3: [3, 1], d6: [6, 1], d10: [10, 1], d12: [12, 1], "2d6": [6, 2], "2d10": [10, 2], d66: [6, 2] };
  async function checkRoll(seq, idx, ev, key, next) {
    const d = { seq, i: ev.i, die: ev.die, rule: ev.rule, logged: ev.faces, result: ev.result, faces: [], steps: [], ok: null };
    rolls[seq + ":" + idx] = d;
    if (!key) { mark(seq, null, "roll " + ev.i + ": cannot be re-derived without the server secret (game in progress)"); return next; }
    if (!(ev.die in DICE) || ev.i !== next) { d.ok = false; mark(seq, false, "roll index " + ev.i + " (expected " + next + ") or die " + ev.die); return next + 1; }
    const [n, count] = DICE[ev.die];
    const limit = (1n << 64n) - ((1n << 64n) % BigInt(n));
    for (let k = 0; k < count; k++) {
      let face = null;
      for (let attempt = 0; face === null; attempt++) {
        const msg = cat(u64(ev.i), lp(utf8(ev.die)), new Uint8Array([k]), u32(attempt));
        const block = await taggedHmac(key, "aar1/roll", msg);
        const cands = [];
        for (let j = 0; j < 4; j++) {
          const x = new DataView(block.buffer).getBigUint64(8 * j);
          const acc = x < limit && face === null;
          if (acc) face = Number(x % BigInt(n)) + 1;
          cands.push({ x: x.toString(16).padStart(16, "0"), ok: x < limit, acc });
        }
        d.steps.push({ k, attempt, msg: hex(msg), block: hex(block), cands, n, limit: limit.toString(16) });
      }
      d.faces.push(face);
    }
    const result = ev.die === "d66" ? 10 * d.faces[0] + d.faces[1] : d.faces.reduce((a, x) => a + x, 0);
    d.ok = JSON.stringify(d.faces) === JSON.stringify(ev.faces) && result === ev.result;
    mark(seq, d.ok, "roll " + ev.i + " (" + ev.die + ", " + ev.rule + ") re-derived here: faces " + JSON.stringify(d.faces) + (d.ok ? "" : ", but the log says " + JSON.stringify(ev.faces)));
    if (d.ok) counts.dice++;
    return next + 1;
  }

  // -- display -----------------------------------------------------------------------------
  // Everything the log or the file says reaches the page as text: the elements are made with
  // view_lib.js's h() and svg() (dom.ts: attributes from a fixed list, children text or nodes),
  // the board pictures are copied through dom.ts's picture(); nothing is markup built from strings.
  const $ = (id) => document.getElementById(id);
  const { h, svg, picture } = window.aarLib;
  function show(v) {
    if (isBytes(v)) return hex(v).length > 24 ? hex(v).slice(0, 24) + "\u2026" : hex(v);
    if (typeof v === "bigint") return v.toString();
    if (Array.isArray(v)) return "[" + v.map(show).join(", ") + "]";
    if (v && typeof v === "object") return "{" + Object.keys(v).map((k) => k + ": " + show(v[k])).join(", ") + "}";
    return JSON.stringify(v);
  }
  const str = (v) => typeof v === "string" ? v : show(v);   // a field the log should give as text, as text whatever it is
  const json = (v) => { try { return JSON.stringify(v); } catch (e) { return show(v); } };
  const markEl = (ok) => ok === true ? h("span", { class: "ok" }, "\u2714") : ok === false ? h("span", { class: "bad" }, "\u2718") : h("span", { class: "na" }, "\u2013");
  // A hidden value is visible at record `at` to the chosen seat from its creation, to everyone
  // from the record that opens it (a public open event, or the end record's secret).
  function visibleAt(hv, at) {
    const key = hv.seq + ":" + hv.k;
    if (DATA.seat && hv.to === DATA.seat && at >= hv.seq) return "yours";
    if (openRecords.has(key) && at >= openRecords.get(key)) return "opened in record " + openRecords.get(key);
    if (endSeq !== null && at >= endSeq) return "opened by the end record's secret";
    return null;
  }
  let layers = {}, layersAt = -1;
  const note = (text) => h("div", { class: "note" }, text);
  // The board at record `at`: the file's base picture with the layers in force, drawn by picture()
  // (dom.ts); {nodes, dropped}: what picture() did not draw is counted (a picture of the render
  // modules has nothing it drops) and said below it.
  function boardAt(at) {
    const B = DATA.board;
    if (!B || !B.base) return { nodes: [note(str((B && B.error) || "no picture"))], dropped: 0 };
    if (at < layersAt) { layers = {}; layersAt = -1; }
    for (let s = layersAt + 1; s <= at; s++) {
      const f = B.frames[s];
      if (!f) continue;
      for (const k of Object.keys(f)) { if (f[k] === null) delete layers[k]; else layers[k] = f[k]; }
    }
    layersAt = at;
    const keys = Object.keys(layers);
    if (!keys.length) return { nodes: [note("no board yet at this record (the dice handshake comes first)")], dropped: 0 };
    const bytes = (s) => Array.from(utf8(s));
    keys.sort((a, b) => { const x = bytes(a), y = bytes(b); for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i]; return x.length - y.length; });
    // the static map once, each layer on its own (in an <svg> of its own, so that no layer can
    // reach into another or into the map), each copied once and cloned for every step
    const base = drawn(String(B.base) + String(B.tail));
    const nodes = [], errors = [];
    let dropped = base.dropped;
    if (base.node) {
      const root = base.node.cloneNode(true);
      for (const k of keys) {
        const l = drawn('<svg xmlns="http://www.w3.org/2000/svg">' + String(layers[k]) + "</svg>");
        dropped += l.dropped;
        if (l.node) for (const c of l.node.childNodes) root.append(c.cloneNode(true));
        else errors.push("layer " + k + ": " + l.error);
      }
      nodes.push(root);
    } else errors.push(base.error);
    if (errors.length) nodes.push(note("not drawn, the file's picture of this record: " + errors.join("; ")));
    if (dropped) nodes.push(note(dropped + " element(s) or attribute(s) of the file's picture are not part of a board picture (scripts, links, styles, foreign content): not drawn"));
    if (B.error && B.frames.slice(at).every((f) => !f) && at > 0) nodes.push(note(str(B.error)));
    return { nodes, dropped };
  }
  const pictures = new Map();  // markup -> picture() of it (dom.ts), copied once
  function drawn(markup) {
    if (!pictures.has(markup)) pictures.set(markup, picture(markup));
    return pictures.get(markup);
  }
  // Six-sided dice are drawn with pips, the others as a numbered face; data-face is the face.
  const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]],
                 5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] };
  function dice(d, faces, die) {
    const six = die === "d6" || die === "2d6" || die === "d66";
    return (Array.isArray(faces) ? faces : [faces]).map((f) => {
      const cls = "die" + (d && d.ok === false ? " badface" : ""), face = str(f);
      const pips = six && Object.prototype.hasOwnProperty.call(PIPS, face) ? PIPS[face] : null;
      if (!pips) return h("span", { class: cls, "data-face": face, title: face }, face);
      return h("span", { class: cls, "data-face": face, title: face },
        svg("svg", { width: 22, height: 22, viewBox: "0 0 26 26", "aria-label": face },
          pips.map(([x, y]) => svg("circle", { cx: x * 6 + 1, cy: y * 6 + 1, r: 2.3 }))));
    });
  }
  function derivation(d) {
    if (!d || !d.steps.length) return h("div", { class: "deriv na" }, "not derivable here without the server secret");
    const out = ["dice key = HMAC-SHA256(server secret, \"aar1/dice-key\" 0x00 || lp(game) || (lp(seat) || entropy)...) \u2014 computed here from the secret and the entropy of the reveal records", h("br")];
    for (const st of d.steps) {
      out.push("face " + st.k + " attempt " + st.attempt + ": block = HMAC-SHA256(dice key, \"aar1/roll\" 0x00 || ", h("code", null, st.msg), ")", h("br"), "= ", h("code", null, st.block), h("br"));
      st.cands.forEach((c, j) => {
        out.push("x" + j + " = ", h("code", null, c.x), " ");
        if (c.acc) out.push("< " + st.limit + ": accepted, x mod " + st.n + " + 1 = ", h("b", null, Number(BigInt("0x" + c.x) % BigInt(st.n)) + 1));
        else out.push(c.ok ? "(not needed)" : "rejected (\u2265 limit)");
        out.push(h("br"));
      });
    }
    out.push("derived faces " + JSON.stringify(d.faces) + "; the log says " + json(d.logged) + " ", markEl(d.ok));
    return h("div", { class: "deriv" }, out);
  }
  const details = (title, body) => h("details", null, h("summary", null, title), body);
  function events(at) {
    const r = R[at];
    if (!r.rec) return h("div", { class: "bad" }, "this record could not be decoded");
    const b = r.rec.body;
    const evs = b && Array.isArray(b.events) ? b.events : [];
    if (!evs.length) return h("div", { class: "na" }, "no events");
    return evs.map((ev, i) => {
      const t = ev && typeof ev === "object" && !isBytes(ev) ? ev.t : undefined;
      const parts = [i + ". ", h("b", null, str(t)), " "];
      if (t === "roll") {
        const d = rolls[at + ":" + i];
        parts.push(dice(d, ev.faces, ev.die), " = " + str(ev.result) + " " + str(ev.die) + " roll " + str(ev.i) + " (" + str(ev.rule) + ") ", markEl(d ? d.ok : null));
        parts.push(details("derivation", derivation(d)));
      } else if (t === "sealed") {
        const hv = hiddenAt.get(at + ":" + ev.k);
        const vis = hv && hv.value !== undefined ? visibleAt(hv, cur) : null;
        if (vis) {
          parts.push(h("span", { class: "opened", "data-ref": at + ":" + ev.k }, "to " + str(ev.to) + ": " + show(hv.value)), " ",
                     h("small", null, "(" + vis + "; opening checked against the commitment ", markEl(true), ")"));
          if (hv.value && hv.value.t === "roll") { const d = rolls[at + ":" + i]; parts.push(" ", dice(d, hv.value.faces, hv.value.die), details("derivation", derivation(d))); }
        } else {
          parts.push(h("span", { class: "sealed", "data-ref": at + ":" + ev.k }, "SEALED to " + str(ev.to)), " ",
                     h("small", null, "commitment ", h("code", null, isBytes(ev.commit) ? hex(ev.commit).slice(0, 16) + "\u2026" : str(ev.commit))));
        }
      } else if (t === "open") {
        const key = Array.isArray(ev.ref) ? ev.ref.map(str).join(":") : str(ev.ref);
        parts.push(h("span", { class: "opened", "data-ref": key }, "opens " + key + ": " + show(ev.value)));
      } else {
        const o = {}; if (ev && typeof ev === "object" && !isBytes(ev)) { for (const k of Object.keys(ev)) if (k !== "t") o[k] = ev[k]; }
        parts.push(show(o));
      }
      return h("div", { class: "ev", "data-t": str(t) }, parts);
    });
  }
  function record(at) {
    const r = R[at], rec = r.rec;
    const cs = checks[at];
    const bad = cs.filter((c) => c.ok === false).length;
    const out = [h("div", { id: "rec-status", class: bad ? "bad" : "ok", "data-ok": bad ? "false" : "true" },
                   bad ? "\u2718 " + bad + " check(s) FAILED at this record" : "\u2714 verified here: every check of this record passed"),
                 h("ul", null, cs.map((c) => h("li", null, markEl(c.ok), " " + c.what)))];
    if (rec) {
      const row = (k, ...v) => h("tr", null, h("td", null, k), h("td", null, v));
      const rows = [row("kind", str(rec.kind))];
      if (r.hash) rows.push(row("hash", h("code", null, hex(r.hash))));
      if (rec.body && rec.body.seat !== undefined) rows.push(row("seat", str(rec.body.seat) + " (counter " + str(rec.body.ctr) + ")" + (rec.body.sealed ? " \u2014 sealed command" : "")));
      const hc = rec.body && rec.body.sealed ? hiddenAt.get(at + ":0") : null;
      const vis = hc && hc.value !== undefined ? visibleAt(hc, at) : null;
      if (hc && !vis) rows.push(row("signed envelope", h("span", { class: "sealed", "data-ref": at + ":0" }, "SEALED command of " + str(hc.to)), " ",
                                    h("small", null, "commitment ", h("code", null, isBytes(hc.commit) ? hex(hc.commit).slice(0, 16) + "\u2026" : str(hc.commit)), "; opened by the end record's secret" + (DATA.secret ? "" : " (not yet: game in progress)"))));
      else if (r.env) rows.push(row("signed envelope", h("span", hc ? { class: "opened", "data-ref": at + ":0" } : null, h("code", null, show(r.env))), vis ? [" ", h("small", null, "(" + vis + ")")] : null));
      const d = DATA.decisions[String(at)];
      if (d) rows.push(row("answered", h("span", { class: "file" }, str(d.seat) + " " + str(d.kind) + ": " + str(d.prompt)), " ", h("small", null, "(from the file's rules replay)")));
      if (rec.kind === "end") rows.push(row("outcome", show(rec.body.outcome)));
      out.push(h("table", { class: "kv" }, rows));
    }
    return out;
  }
  function hidden(at) {
    const hs = Array.from(hiddenAt.values()).filter((hv) => hv.seq <= at);
    if (!hs.length) return h("div", { class: "na" }, "none yet");
    const open = hs.filter((hv) => hv.value !== undefined && visibleAt(hv, at));
    return [h("div", null, hs.length + " hidden values so far; " + open.length + " visible to " + (DATA.seat ? str(DATA.seat) : "a spectator") + " at this record"),
            details("list", h("ul", null, hs.slice(-200).map((hv) => {
              const v = hv.value !== undefined ? visibleAt(hv, at) : null;
              return h("li", null, hv.seq + ":" + hv.k + " to " + str(hv.to) + ": ", v ? [h("span", { class: "opened" }, show(hv.value).slice(0, 160)), " (" + v + ")"] : h("span", { class: "sealed" }, "sealed"));
            })))];
  }
  const fill = (id, ...nodes) => $(id).replaceChildren(...nodes.flat(Infinity));
  let cur = 0;
  function go(at) {
    cur = Math.max(0, Math.min(N - 1, at));
    $("slider").value = String(cur);
    const rec = R[cur].rec;
    $("pos").textContent = "record " + cur + " / " + (N - 1) + (rec ? " \u2014 " + str(rec.kind) : "");
    const board = boardAt(cur);
    fill("board", board.nodes);
    $("board").dataset.dropped = String(board.dropped);
    $("rechead").textContent = "Record " + cur;
    fill("rec", record(cur));
    fill("events", events(cur));
    fill("hidden", hidden(cur));
    document.body.dataset.record = String(cur);
  }
  function init() {
    const title = "afteraction replay: " + str(DATA.ruleset) + " game " + str(DATA.game);
    document.title = title;
    $("title").textContent = title;
    $("slider").max = String(N - 1);
    $("meta").textContent = "game " + str(DATA.game) + " \u00b7 " + str(DATA.ruleset) + " \u00b7 " + N + " records \u00b7 as seen by " + (DATA.seat ? str(DATA.seat) : "a spectator") + " \u00b7 server key " + str(DATA.server_vkey) + " (compare it with the one your league publishes)";
    $("slider").addEventListener("input", () => go(Number($("slider").value)));
    $("first").onclick = () => go(0); $("last").onclick = () => go(N - 1);
    $("prev").onclick = () => go(cur - 1); $("next").onclick = () => go(cur + 1);
    document.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight") { go(cur + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { go(cur - 1); e.preventDefault(); }
      else if (e.key === "Home") go(0); else if (e.key === "End") go(N - 1);
    });
    fill("what", h("ul", null,
      h("li", null, markEl(true), " ", h("b", null, "checked by this page"), " (WebCrypto, in this browser): canonical record bytes, the hash chain, every checkpoint's Ed25519 signature by the server key, its size and Merkle root and the seat cosignatures it carries, every seat key of genesis (SPEC.md 7.4), every seat's Ed25519 signature and envelope (format v2: bound to the record's position and to the hash of the record before it), the entropy handshake, (v2) every sealed value's ciphertext length against the size genesis declares for its kind, the end record's place and outcome, (v2) the endings every game has (each record's time under a time control, resignations, offers and acceptances, the end record's cause: SPEC.md 8.1-8.3), the server secret against genesis, every die re-derived from the secret and the seats' entropy, every public opening against its commitment, and once the game has ended every sealed value, opened here with the published server secret (ChaCha20-Poly1305, its padding, its commitment)."),
      h("li", null, h("span", { class: "file" }, "\u2691"), " ", h("b", null, "taken from the file"), ": the rules replay (the board pictures and the decisions, computed by ", h("code", null, "aar view"), " with the engine's verifier), and, in a game in progress, the chosen seat's own openings: each is checked here against its commitment (SHA-256)."),
      h("li", null, "Everything the file says is shown as text; the board pictures are copied element by element through a fixed list of SVG shapes and presentation attributes, and the page's policy (Content-Security-Policy) runs no script but its own."),
      h("li", null, "The command line's own verdict: " + (DATA.cli.verified ? "verified" : "NOT VERIFIED: " + str(DATA.cli.failure)) + "; " +
        (DATA.cli.replayed_with ? "the rules replayed byte for byte by " + str(DATA.cli.replayed_with) + " (the version genesis names, SPEC.md 10.4)" : "the rules not replayed" + (DATA.cli.notes.length ? " (" + DATA.cli.notes.map(str).join("; ") + ")" : "")) + ".")));
    go(0);
  }
  if (!N) {  // a bundle whose first record frame breaks off (aar view exits 1, as aar verify)
    const sum = $("summary");
    sum.className = "bad";
    sum.textContent = "\u2718 NOT VERIFIED: the file holds no complete record; aar view's verifier: " + DATA.cli.failure;
    window.aar = { go: () => {}, checks, counts, rolls, firstBad: -1 };
    document.body.dataset.checked = "done";
    return;
  }
  init();
  checkAll().catch((e) => { counts.failed++; checks[0].push({ ok: false, what: "checking stopped: " + e.message }); }).finally(() => {
    const firstBad = checks.findIndex((cs) => cs.some((c) => c.ok === false));
    const sum = $("summary");
    if (DATA.header_records !== N) { counts.failed++; checks[N - 1].push({ ok: false, what: "the header announces " + DATA.header_records + " records, the file holds " + N }); }
    if (counts.failed) {
      sum.className = "bad";
      sum.textContent = "\u2718 NOT VERIFIED by this page: " + counts.failed + " check(s) failed, the first at record " + (firstBad < 0 ? N - 1 : firstBad);
    } else if (!DATA.cli.verified) {
      sum.className = "bad";
      sum.textContent = "\u2718 NOT VERIFIED: this page's own checks passed, but aar view's verifier (the rules replay, which a browser cannot run) refused the log: " + DATA.cli.failure;
      if (DATA.cli.failure_seq !== null) checks[Math.min(N - 1, DATA.cli.failure_seq)].push({ ok: false, what: DATA.cli.failure_seq >= N ? "from the file: aar view's reader refused the rest of the bundle, after this record (the last complete one): " + DATA.cli.failure : "from the file: aar view's verifier refused this record: " + DATA.cli.failure });
    } else {
      sum.className = "ok";
      sum.textContent = "\u2714 verified in this browser: " + counts.chain + " records chained, " + counts.checkpoints + " checkpoints, " + counts.signatures + " seat signatures, " + counts.dice + " dice re-derived, " + counts.openings + " public openings, " + counts.sealed + " sealed values checked against their commitments" + (DATA.secret ? "" : " (game in progress: dice and sealed values cannot be checked before the end)");
    }
    const first = checks.findIndex((cs) => cs.some((c) => c.ok === false));
    sum.dataset.failed = String(counts.failed);
    sum.dataset.firstBad = String(first);
    window.aar = { go, checks, counts, rolls, firstBad: first };
    document.body.dataset.checked = "done";
    go(cur);
  });
})();
