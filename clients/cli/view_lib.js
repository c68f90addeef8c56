// Generated from clients/web/src/view_lib.ts by clients/web/build.mjs (`make web`): do not edit.
"use strict";
var aarLib = (() => {
  var __defProp = Object.defineProperty;
  var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
  var __getOwnPropNames = Object.getOwnPropertyNames;
  var __hasOwnProp = Object.prototype.hasOwnProperty;
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };
  var __copyProps = (to, from, except, desc) => {
    if (from && typeof from === "object" || typeof from === "function") {
      for (let key of __getOwnPropNames(from))
        if (!__hasOwnProp.call(to, key) && key !== except)
          __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
    }
    return to;
  };
  var __toCommonJS = (mod2) => __copyProps(__defProp({}, "__esModule", { value: true }), mod2);

  // src/view_lib.ts
  var view_lib_exports = {};
  __export(view_lib_exports, {
    CompactTree: () => CompactTree,
    PageEndings: () => PageEndings,
    b64: () => b64,
    cat: () => cat,
    commandMessage: () => commandMessage,
    decode: () => decode,
    ed25519Verify: () => ed25519Verify,
    encode: () => encode,
    envelopeProblem: () => envelopeProblem,
    eq: () => eq,
    eventProblem: () => eventProblem,
    exactKeys: () => exactKeys,
    gameOrigin: () => gameOrigin,
    genesisProblem: () => genesisProblem,
    h: () => h,
    hex: () => hex,
    hiddenCoreEvent: () => hiddenCoreEvent,
    isBytes: () => isBytes,
    isMap: () => isMap,
    keyProblem: () => keyProblem,
    lp: () => lp,
    marked: () => marked,
    openCheckpoint: () => openCheckpoint,
    openSealed: () => openSealed,
    pageEnvelope: () => pageEnvelope,
    pageHandshake: () => pageHandshake,
    parseVkey: () => parseVkey,
    picture: () => picture,
    placementProblem: () => placementProblem,
    pointCheck: () => pointCheck,
    readRecord: () => readRecord,
    recordHash: () => recordHash,
    sealedLength: () => sealedLength,
    seatCosignatures: () => seatCosignatures,
    secretCommitment: () => secretCommitment,
    signatureProblem: () => signatureProblem,
    strictDecode: () => strictDecode,
    svg: () => svg,
    taggedHmac: () => taggedHmac,
    td: () => td,
    u32: () => u32,
    u64: () => u64,
    utf8: () => utf8,
    valueCommitment: () => valueCommitment,
    verifySignature: () => verifySignature
  });

  // src/lib/bytes.ts
  var te = new TextEncoder();
  var td = new TextDecoder("utf-8", { fatal: true });
  var utf8 = (s) => te.encode(s);
  var hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  var b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  var toB64 = (b) => btoa(String.fromCharCode(...b));
  function cat(...xs) {
    const o = new Uint8Array(xs.reduce((a, x) => a + x.length, 0));
    let i = 0;
    for (const x of xs) {
      o.set(x, i);
      i += x.length;
    }
    return o;
  }
  var eq = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  var u32 = (n) => {
    const o = new Uint8Array(4);
    new DataView(o.buffer).setUint32(0, n);
    return o;
  };
  var u64 = (n) => {
    const o = new Uint8Array(8);
    new DataView(o.buffer).setBigUint64(0, BigInt(n));
    return o;
  };
  var lp = (b) => cat(u32(b.length), b);
  var isBytes = (v) => v instanceof Uint8Array;

  // src/lib/msgpack.ts
  function decode(buf) {
    let p = 0;
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const need = (n) => {
      if (p + n > buf.length) throw new Error("truncated msgpack");
    };
    const take = (n) => {
      need(n);
      const s = buf.subarray(p, p + n);
      p += n;
      return s;
    };
    const int = (v2) => v2 >= -(2n ** 53n) && v2 <= 2n ** 53n ? Number(v2) : v2;
    const str = (n) => td.decode(take(n));
    let depth = 0;
    const enter = () => {
      if (++depth > 64) throw new Error("arrays/maps nested deeper than 64 (SPEC.md 1.1 rule 6)");
    };
    const arr = (n) => {
      enter();
      const a = [];
      for (let i = 0; i < n; i++) a.push(val());
      depth--;
      return a;
    };
    const map = (n) => {
      enter();
      const m = /* @__PURE__ */ Object.create(null);
      for (let i = 0; i < n; i++) {
        const k = val();
        if (typeof k !== "string") throw new Error("map key is not text");
        if (k in m) throw new Error("duplicate map key");
        m[k] = val();
      }
      depth--;
      return m;
    };
    function val() {
      need(1);
      const b = buf[p++];
      if (b <= 127) return b;
      if (b >= 224) return b - 256;
      if ((b & 240) === 128) return map(b & 15);
      if ((b & 240) === 144) return arr(b & 15);
      if ((b & 224) === 160) return str(b & 31);
      switch (b) {
        case 192:
          return null;
        case 194:
          return false;
        case 195:
          return true;
        case 196: {
          need(1);
          const n = buf[p++];
          return take(n).slice();
        }
        case 197: {
          need(2);
          const n = dv.getUint16(p);
          p += 2;
          return take(n).slice();
        }
        case 198: {
          need(4);
          const n = dv.getUint32(p);
          p += 4;
          return take(n).slice();
        }
        case 204:
          need(1);
          return dv.getUint8(p++);
        case 205: {
          need(2);
          const v2 = dv.getUint16(p);
          p += 2;
          return v2;
        }
        case 206: {
          need(4);
          const v2 = dv.getUint32(p);
          p += 4;
          return v2;
        }
        case 207: {
          need(8);
          const v2 = dv.getBigUint64(p);
          p += 8;
          return int(v2);
        }
        case 208:
          need(1);
          return dv.getInt8(p++);
        case 209: {
          need(2);
          const v2 = dv.getInt16(p);
          p += 2;
          return v2;
        }
        case 210: {
          need(4);
          const v2 = dv.getInt32(p);
          p += 4;
          return v2;
        }
        case 211: {
          need(8);
          const v2 = dv.getBigInt64(p);
          p += 8;
          return int(v2);
        }
        case 217: {
          need(1);
          return str(dv.getUint8(p++));
        }
        case 218: {
          need(2);
          const n = dv.getUint16(p);
          p += 2;
          return str(n);
        }
        case 219: {
          need(4);
          const n = dv.getUint32(p);
          p += 4;
          return str(n);
        }
        case 220: {
          need(2);
          const n = dv.getUint16(p);
          p += 2;
          return arr(n);
        }
        case 221: {
          need(4);
          const n = dv.getUint32(p);
          p += 4;
          return arr(n);
        }
        case 222: {
          need(2);
          const n = dv.getUint16(p);
          p += 2;
          return map(n);
        }
        case 223: {
          need(4);
          const n = dv.getUint32(p);
          p += 4;
          return map(n);
        }
      }
      throw new Error("byte 0x" + b.toString(16) + " is outside the canonical profile");
    }
    const v = val();
    if (p !== buf.length) throw new Error("trailing bytes");
    return v;
  }
  function encode(v) {
    const out = [];
    const push = (...bs) => {
      for (const b of bs) out.push(b);
    };
    const be = (n, bytes) => {
      const o = [];
      let x = BigInt(n);
      for (let i = 0; i < bytes; i++) {
        o.unshift(Number(x & 255n));
        x >>= 8n;
      }
      push(...o);
    };
    function enc(v2) {
      if (v2 === null) return push(192);
      if (v2 === false) return push(194);
      if (v2 === true) return push(195);
      if (typeof v2 === "number" || typeof v2 === "bigint") {
        const n2 = BigInt(v2);
        if (n2 >= 0n) {
          if (n2 <= 127n) return push(Number(n2));
          if (n2 <= 0xffn) return push(204), be(n2, 1);
          if (n2 <= 0xffffn) return push(205), be(n2, 2);
          if (n2 <= 0xffffffffn) return push(206), be(n2, 4);
          return push(207), be(n2, 8);
        }
        if (n2 >= -32n) return push(Number(n2 + 256n));
        if (n2 >= -128n) return push(208), be(BigInt.asUintN(8, n2), 1);
        if (n2 >= -32768n) return push(209), be(BigInt.asUintN(16, n2), 2);
        if (n2 >= -2147483648n) return push(210), be(BigInt.asUintN(32, n2), 4);
        return push(211), be(BigInt.asUintN(64, n2), 8);
      }
      if (typeof v2 === "string") {
        const b = utf8(v2), n2 = b.length;
        if (n2 <= 31) push(160 | n2);
        else if (n2 <= 255) push(217, n2);
        else if (n2 <= 65535) push(218), be(n2, 2);
        else push(219), be(n2, 4);
        for (const x of b) out.push(x);
        return;
      }
      if (isBytes(v2)) {
        const n2 = v2.length;
        if (n2 <= 255) push(196, n2);
        else if (n2 <= 65535) push(197), be(n2, 2);
        else push(198), be(n2, 4);
        for (const x of v2) out.push(x);
        return;
      }
      if (Array.isArray(v2)) {
        const n2 = v2.length;
        if (n2 <= 15) push(144 | n2);
        else if (n2 <= 65535) push(220), be(n2, 2);
        else push(221), be(n2, 4);
        for (const x of v2) enc(x);
        return;
      }
      const keys = Object.keys(v2).map((k) => [utf8(k), k]).sort((a, b) => {
        const x = a[0], y = b[0];
        for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
        return x.length - y.length;
      });
      const n = keys.length;
      if (n <= 15) push(128 | n);
      else if (n <= 65535) push(222), be(n, 2);
      else push(223), be(n, 4);
      for (const [, k] of keys) {
        enc(k);
        enc(v2[k]);
      }
    }
    enc(v);
    return Uint8Array.from(out);
  }
  function strictDecode(buf) {
    const v = decode(buf);
    if (!eq(encode(v), buf)) throw new Error("not canonical: the re-encoding differs");
    return v;
  }

  // src/lib/endings.ts
  var isMap = (v) => !!v && typeof v === "object" && !Array.isArray(v) && !isBytes(v);
  var isInt = (v) => typeof v === "number" && Number.isInteger(v);
  var exactKeys = (v, keys) => isMap(v) && Object.keys(v).sort().join(",") === [...keys].sort().join(",");
  var same = (a, b) => eq(encode(a), encode(b));
  var SECOND = 1e3;
  var DAY = 864e5;
  var MAX_TIME_MS = 2 ** 53;
  var LIMITS = { decision: 30 * DAY, total: 365 * DAY, abandon: 365 * DAY };
  function controlProblem(c) {
    if (!exactKeys(c, ["decision", "total", "abandon"]) || !Object.values(c).every(isInt))
      return "clock is a map of exactly the integers decision, total and abandon (milliseconds)";
    const m = c;
    for (const k of ["decision", "total"])
      if (m[k] !== 0 && !(SECOND <= m[k] && m[k] <= LIMITS[k])) return `clock.${k} is 0 (none) or ${SECOND}..${LIMITS[k]} ms, not ${m[k]}`;
    if (!(SECOND <= m.abandon && m.abandon <= LIMITS.abandon)) return `clock.abandon is ${SECOND}..${LIMITS.abandon} ms, not ${m.abandon}`;
    return null;
  }
  function timeProblem(at) {
    return isInt(at) && at >= 0 && at <= MAX_TIME_MS ? null : `a time is an integer 0..${MAX_TIME_MS} (milliseconds since the Unix epoch)`;
  }
  var printable = (s) => [...s].every((ch) => ch === " " || !/[\p{C}\p{Z}]/u.test(ch));
  var text = (v, most) => typeof v === "string" && [...v].length >= 1 && [...v].length <= most && printable(v) && v === v.trim();
  function calendarDate(v) {
    if (typeof v !== "string" || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(v)) return false;
    const [y, m, d] = v.split("-").map(Number);
    if (y < 1 || m < 1 || m > 12 || d < 1) return false;
    const days = [31, y % 4 === 0 && y % 100 !== 0 || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
    return d <= days;
  }
  function matchProblem(m, seats) {
    if (!isMap(m) || !Object.keys(m).length || !Object.keys(m).every((k) => ["label", "players", "date"].includes(k)))
      return "match is a map of at least one of label, players, date and no other key";
    if ("label" in m && !text(m.label, 128)) return "match label: 1-128 printable characters without surrounding spaces";
    if ("players" in m) {
      const p = m.players;
      if (!isMap(p) || !Object.keys(p).length) return "match players: a non-empty map of seat to name";
      for (const [s, name] of Object.entries(p)) {
        if (!seats.includes(s)) return `match players: ${s.slice(0, 64)} is not a seat of this game`;
        if (!text(name, 64)) return `match players: ${s}'s name: 1-64 printable characters without surrounding spaces`;
      }
    }
    if ("date" in m && !calendarDate(m.date)) return "match date: YYYY-MM-DD, a calendar date";
    return null;
  }
  function endingOutcome(cause, seats) {
    const other = (s) => {
      const r = seats.filter((x) => x !== s);
      return r.length === 1 ? r[0] : null;
    };
    if (cause.kind === "resign") return { winner: other(cause.seat), reason: `seat ${String(cause.seat)} resigned` };
    if (cause.kind === "agree") {
      const w = cause.winner;
      return { winner: w, reason: w === null ? "agreed draw" : `agreed result: seat ${String(w)} wins` };
    }
    if (cause.kind === "timeout") return { winner: other(cause.seat), reason: `seat ${String(cause.seat)} ran out of time (${String(cause.control)} limit)` };
    return { winner: null, reason: "abandoned: no seat acted within the limit (no result)" };
  }
  var CAUSE_KEYS = {
    resign: ["kind", "seat"],
    agree: ["kind", "offer", "winner"],
    timeout: ["kind", "seat", "control", "since", "deadline"],
    abandon: ["kind", "since", "deadline"]
  };
  function endingEvent(seat, e) {
    if (e.kind === "resign") return { t: "resign", seat };
    if (e.kind === "offer") return { t: "offer", seat, winner: e.winner || null };
    if (e.kind === "accept") return { t: "accept", seat, offer: e.offer ?? 0, winner: e.winner || null };
    return null;
  }
  var Clock = class {
    constructor(decision, total, abandon, lastAt) {
      this.decision = decision;
      this.total = total;
      this.abandon = abandon;
      this.lastAt = lastAt;
      this.acted = [0, lastAt];
    }
    since = null;
    used = {};
    acted;
    /** [deadline, control] of the seat's pending game decision, or null (no limit, not started). */
    timeout(seat) {
      if (!this.since || !(this.decision || this.total)) return null;
      const at = this.since[1], d = [];
      if (this.decision) d.push([at + this.decision, "decision"]);
      if (this.total) d.push([at + this.total - (this.used[seat] ?? 0), "total"]);
      d.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1));
      return d[0];
    }
    abandonDeadline() {
      return this.acted[1] + this.abandon;
    }
  };
  var EndingsCheck = class {
    // the end record's ({kind: "rules"} when the rules ended it)
    constructor(genesis, seats, fail) {
      this.seats = seats;
      this.fail = fail;
      this.v2 = genesis.v >= 2;
      this.stand = genesis.v >= 3;
      const c = genesis.body.clock;
      this.clock = this.v2 && c ? new Clock(c.decision, c.total, c.abandon, genesis.body.at) : null;
    }
    v2;
    clock;
    stand;
    // format >= 3: an offer stands until another seat answers it
    standing = /* @__PURE__ */ new Map();
    // seat -> (seq, winner) of its standing offer (SPEC.md 8.1)
    tail = /* @__PURE__ */ new Map();
    // engine/endings.py Offers.tail
    recOffer = null;
    // the record being checked is this seat's offer of this winner
    last = null;
    // the previous record's resign / accept event
    cause = null;
    /** Genesis (step 4): exactly its keys (SPEC.md 1.3), the optional match, clock + at. */
    static genesisKeys(v, b) {
      const keys = ["ruleset", "scenario", "options", "seats", "server", "secret_commit"];
      if (v >= 2) keys.push("sealed_sizes");
      if (v >= 2 && "match" in b) keys.push("match");
      if (v >= 2 && ("clock" in b || "at" in b)) keys.push("clock", "at");
      return keys;
    }
    static genesisProblem(v, b, seats) {
      if (v < 2) return null;
      if ("match" in b) {
        const why = matchProblem(b.match, seats);
        if (why) return "genesis match data: " + why;
      }
      if ("clock" in b || "at" in b) {
        const why = controlProblem(b.clock) ?? timeProblem(b.at);
        if (why) return "genesis clock and at (SPEC.md 8.2): " + why;
      }
      return null;
    }
    /** (seq, seat, winner) of the latest standing offer (v2: only an offer in the last record). */
    get offer() {
      let out = null;
      for (const [s, o] of this.standing) if (!out || o[0] > out[0]) out = [o[0], s, o[1]];
      return out;
    }
    /** What envelopeProblem may bind past (format 3). */
    get tailView() {
      return { hashOf: (n) => this.tail.get(n)?.[0] ?? null, offerBy: (n) => this.tail.get(n)?.[1] ?? null };
    }
    /** After every record's checks (engine/endings.py Offers.after): which offers stand. */
    recordDone(seq, hash, seat) {
      const o = this.recOffer;
      this.recOffer = null;
      if (o && seat !== null) {
        if (!this.stand) this.standing.clear();
        this.standing.set(seat, [seq, o[1]]);
        this.tail.set(seq, [hash, seat]);
        return;
      }
      for (const s of [...this.standing.keys()]) if (!this.stand || seat === null || s !== seat) this.standing.delete(s);
      this.tail = /* @__PURE__ */ new Map([[seq, [hash, null]]]);
    }
    /** SPEC.md 1.3: a seat record or end record of a game with a clock also has `at`. */
    bodyKeys() {
      return this.clock ? ["at"] : [];
    }
    /** A public command record whose envelope resigns: the one command that may precede the handshake's end. */
    isResignation(ending) {
      return this.v2 && ending?.kind === "resign";
    }
    at(body, step) {
      const c = this.clock;
      if (!c) return null;
      const why = timeProblem(body.at);
      if (why) this.fail(step, `record time at (a game with a clock, SPEC.md 8.2): ${why}`);
      const at = body.at;
      if (at < c.lastAt) this.fail(step, `times never decrease (SPEC.md 8.2): ${at} after ${c.lastAt}`);
      return at;
    }
    /** Step 6, after the record's own checks: ``ending`` its public envelope's ending command (null:
     * none, or sealed), ``starts`` if this reveal started the game, ``started`` if the game had
     * started before it. */
    seatRecord(seq, kind, body, ending, starts, started) {
      const seat = body.seat;
      if (this.last) this.fail("8", `a ${String(this.last.t)} ends the game: the end record follows it, not a ${kind} record`);
      const at = this.at(body, "6");
      const c = this.clock;
      if (c && at !== null) {
        if (at > c.abandonDeadline()) this.fail("6", `a seat record after the abandonment deadline ${c.abandonDeadline()} (SPEC.md 8.2)`);
        const t = kind === "command" && !ending ? c.timeout(seat) : null;
        if (t && at > t[0]) this.fail("6", `seat ${seat}'s command after its deadline ${t[0]} (${t[1]} limit, SPEC.md 8.2)`);
      }
      if (ending) {
        const ev = endingEvent(seat, ending);
        if (!ev) this.fail("6", "an ending command carries no kind (resign, offer or accept)");
        if (!same(body.events, [ev])) this.fail("6", "the event of an ending command is its signed envelope's (SPEC.md 8.1)");
        if (ev.t !== "resign" && !started) this.fail("6", `an ${String(ev.t)} before the dice handshake completed (SPEC.md 8.1)`);
        if (ev.t === "offer") {
          if (ev.winner !== null && !this.seats.includes(ev.winner)) this.fail("6", `an offer names a seat or a draw, not ${String(ev.winner)}`);
          if (this.stand && this.standing.has(seat)) this.fail("6", `seat ${seat}'s offer stands: one standing offer per seat (v >= 3, SPEC.md 8.1)`);
          this.recOffer = [seat, ev.winner];
        } else {
          const by = [...this.standing].find(([, o]) => o[0] === ev.offer);
          if (ev.t === "accept" && (!by || !this.stand && ev.offer !== seq - 1 || by[0] === seat || ev.winner !== by[1][1]))
            this.fail("6", "an acceptance names the offer in the record before it, made by the other seat, for the same result (SPEC.md 8.1; format 3: any offer of another seat that stands)");
          this.last = ev;
        }
      }
      if (c && at !== null) {
        c.lastAt = at;
        c.acted = [seq, at];
        if (kind === "command" && !ending || starts) {
          if (!starts && c.since) c.used[seat] = (c.used[seat] ?? 0) + at - c.since[1];
          c.since = [seq, at];
        }
      }
    }
    /** Step 8 for the end record: its keys, the record before it, its cause and the outcome of an
     * engine ending (SPEC.md 8, 8.3). Returns the cause ({kind: "rules"} when the rules ended it). */
    end(body, prevKind) {
      const want = ["secret", "outcome", ...this.bodyKeys(), ...this.v2 && "cause" in body ? ["cause"] : []];
      if (!exactKeys(body, want)) this.fail("8", `the end record body has exactly the keys ${want.join(", ")} (SPEC.md 1.3)`);
      const at = this.at(body, "8");
      const last = this.last;
      this.last = null;
      const k = body.cause;
      if (k === void 0) {
        if (last) this.fail("8", `the end after a ${String(last.t)} gives its cause`);
        if (prevKind !== "command") this.fail("8", `an end record follows the command record that ended the game, not a ${prevKind} record (SPEC.md 8)`);
        return this.cause = { kind: "rules" };
      }
      if (!isMap(k) || typeof k.kind !== "string" || !(k.kind in CAUSE_KEYS) || !exactKeys(k, CAUSE_KEYS[k.kind]))
        this.fail("8", "the cause is a map of one of the shapes of SPEC.md 8.3");
      if (k.kind === "resign") {
        if (!last || last.t !== "resign" || last.seat !== k.seat)
          this.fail("8", `the resignation the cause names is the record before, signed by the resigning seat ${String(k.seat)} (SPEC.md 8.1)`);
      } else if (k.kind === "agree") {
        if (!last || last.t !== "accept" || last.offer !== k.offer || last.winner !== k.winner)
          this.fail("8", `the agreed result is the acceptance in the record before, of the offer ${String(k.offer)} (SPEC.md 8.1)`);
      } else {
        if (last) this.fail("8", `the end after a ${String(last.t)} gives its cause, not ${String(k.kind)}`);
        const c = this.clock;
        if (!c) this.fail("8", `a ${k.kind} needs a time control in genesis (SPEC.md 8.2)`);
        if (k.kind === "timeout") {
          const t = typeof k.seat === "string" && this.seats.includes(k.seat) ? c.timeout(k.seat) : null;
          if (!t || !c.since || k.since !== c.since[0] || k.deadline !== t[0] || k.control !== t[1])
            this.fail("8", "the time-out's control, since and deadline are the ones the declared control and the recorded times give (SPEC.md 8.2)");
          if (t[0] > c.abandonDeadline()) this.fail("8", "a time-out whose deadline is after the abandonment deadline (SPEC.md 8.2)");
        } else if (k.since !== c.acted[0] || k.deadline !== c.abandonDeadline()) {
          this.fail("8", "the abandonment's since and deadline are the last seat record's and the declared limit's (SPEC.md 8.2)");
        }
        if (!(isInt(k.deadline) && at !== null && at > k.deadline)) this.fail("8", `a ${k.kind} is recorded after its deadline ${String(k.deadline)} (SPEC.md 8.2)`);
      }
      if (!same(body.outcome ?? null, endingOutcome(k, this.seats))) this.fail("8", `the outcome of a ${k.kind} is the engine's (SPEC.md 8.3)`);
      return this.cause = k;
    }
  };

  // src/lib/ed25519.ts
  var P = 2n ** 255n - 19n;
  var L = 2n ** 252n + 27742317777372353535851937790883648493n;
  var mod = (a) => (a % P + P) % P;
  function pow(b, e) {
    let r = 1n;
    b = mod(b);
    while (e > 0n) {
      if (e & 1n) r = r * b % P;
      b = b * b % P;
      e >>= 1n;
    }
    return r;
  }
  var D = mod(-121665n * pow(121666n, P - 2n));
  var SQRT_M1 = pow(2n, (P - 1n) / 4n);
  var IDENTITY = [0n, 1n, 1n, 0n];
  function add([x1, y1, z1, t1], [x2, y2, z2, t2]) {
    const a = mod((y1 - x1) * (y2 - x2)), b = mod((y1 + x1) * (y2 + x2));
    const c = mod(2n * D * t1 * t2), d = mod(2n * z1 * z2);
    const e = b - a, f = d - c, g = d + c, h2 = b + a;
    return [mod(e * f), mod(g * h2), mod(f * g), mod(e * h2)];
  }
  function mul(n, p) {
    let q = IDENTITY;
    while (n > 0n) {
      if (n & 1n) q = add(q, p);
      p = add(p, p);
      n >>= 1n;
    }
    return q;
  }
  var isIdentity = ([x, y, z]) => mod(x) === 0n && mod(y - z) === 0n;
  var littleEndian = (b) => b.reduceRight((n, x) => n << 8n | BigInt(x), 0n);
  function decode2(b) {
    if (b.length !== 32) return [0, `is ${b.length} bytes, not 32`];
    const n = littleEndian(b), y = n & (1n << 255n) - 1n, sign = n >> 255n;
    if (y >= P) return [1, "is not canonical (y >= p)"];
    const u = mod(y * y - 1n), v = mod(D * y * y + 1n);
    let x = mod(u * pow(v, 3n) * pow(u * pow(v, 7n), (P - 5n) / 8n));
    if (mod(v * x * x - u) !== 0n) {
      if (mod(v * x * x + u) !== 0n) return [2, "is not the encoding of a curve point"];
      x = mod(x * SQRT_M1);
    }
    if (x === 0n && sign) return [3, "is not canonical (x = 0 with the sign bit set)"];
    if ((x & 1n) !== sign) x = P - x;
    return [x, y, 1n, mod(x * y)];
  }
  function pointCheck(b) {
    const p = decode2(b);
    if (p.length === 2) return p;
    if (isIdentity(p)) return [4, "is the identity point (small order 1)"];
    let q = p;
    for (const order of [2, 4, 8]) {
      q = add(q, q);
      if (isIdentity(q)) return [4, `has small order ${order}`];
    }
    if (!isIdentity(mul(L, p))) return [5, "has mixed order (outside the prime-order subgroup)"];
    return null;
  }
  var keyVerdicts = /* @__PURE__ */ new Map();
  function keyProblem(a) {
    const id = hex(a);
    if (!keyVerdicts.has(id)) {
      const c = pointCheck(a);
      keyVerdicts.set(id, c === null ? null : c[1]);
    }
    return keyVerdicts.get(id);
  }
  var SMALL_ORDER = (() => {
    let t = null;
    for (let y = 2n; t === null; y++) {
      const bytes = new Uint8Array(32);
      for (let i = 0, n = y; i < 32; i++, n >>= 8n) bytes[i] = Number(n & 255n);
      const q = decode2(bytes);
      if (q.length === 4) {
        const c = mul(L, q);
        if (!isIdentity(mul(4n, c))) t = c;
      }
    }
    const out = /* @__PURE__ */ new Set();
    let p = IDENTITY;
    for (let i = 0; i < 8; i++) {
      const [x, y, z] = p, zi = pow(z, P - 2n), ax = mod(x * zi), ay = mod(y * zi);
      const n = ay | (ax & 1n) << 255n, enc = new Uint8Array(32);
      for (let j = 0, m = n; j < 32; j++, m >>= 8n) enc[j] = Number(m & 255n);
      out.add(hex(enc));
      p = add(p, t);
    }
    return out;
  })();
  var subtle = crypto.subtle;
  var edKeys = /* @__PURE__ */ new Map();
  async function signatureProblem(pub, msg, sig) {
    const why = keyProblem(pub);
    if (why !== null) return `1 (key): the key ${why}`;
    if (sig.length !== 64) return `2 (length): a signature is 64 bytes, not ${sig.length}`;
    const r = sig.slice(0, 32), s = littleEndian(sig.slice(32));
    if (s >= L) return "3 (S): S >= L";
    const ry = littleEndian(r) & (1n << 255n) - 1n;
    if (ry >= P) return "4 (R): R is not canonical (y >= p)";
    if ((ry === 1n || ry === P - 1n) && r[31] & 128) return "4 (R): R is not canonical (x = 0 with the sign bit set)";
    if (SMALL_ORDER.has(hex(r))) return "5 (R): R has small order";
    const id = hex(pub);
    let k = edKeys.get(id);
    if (!k) {
      k = await subtle.importKey("raw", pub, { name: "Ed25519" }, false, ["verify"]);
      edKeys.set(id, k);
    }
    let ok = false;
    try {
      ok = await subtle.verify({ name: "Ed25519" }, k, sig, msg);
    } catch {
      ok = false;
    }
    if (ok) return null;
    return decode2(r).length === 2 ? "4 (R): R is not the encoding of a curve point" : "6 (equation): [S]B != R + [k]A";
  }
  var verifySignature = async (pub, msg, sig) => await signatureProblem(pub, msg, sig) === null;

  // src/lib/crypto.ts
  var subtle2 = crypto.subtle;
  var sha256 = async (b) => new Uint8Array(await subtle2.digest("SHA-256", b));
  var tagged = (tag, data) => cat(utf8(tag), new Uint8Array([0]), data);
  var taggedHash = (tag, data) => sha256(tagged(tag, data));
  var hmacKeys = /* @__PURE__ */ new Map();
  async function hmac(key, msg) {
    const id = hex(key);
    let k = hmacKeys.get(id);
    if (!k) {
      k = subtle2.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      hmacKeys.set(id, k);
    }
    return new Uint8Array(await subtle2.sign("HMAC", await k, msg));
  }
  var taggedHmac = (key, tag, data) => hmac(key, tagged(tag, data));
  var ed25519Verify = (pub, sig, msg) => verifySignature(pub, msg, sig);
  async function parseVkey(s) {
    const i = s.indexOf("+"), j = s.indexOf("+", i + 1);
    if (i < 1 || j < 0) throw new Error("not a verifier key");
    const raw = b64(s.slice(j + 1));
    if (raw.length !== 33 || raw[0] !== 1) throw new Error("not an Ed25519 verifier key");
    const name = s.slice(0, i), id = s.slice(i + 1, j), pub = raw.slice(1);
    const want = hex((await sha256(cat(utf8(name), new Uint8Array([10, 1]), pub))).slice(0, 4));
    if (want !== id) throw new Error("the verifier key's id does not match its key");
    const weak = keyProblem(pub);
    if (weak !== null) throw new Error(`the verifier key's public key ${weak} (SPEC.md 7.4)`);
    return { name, id, pub, vkey: s };
  }
  async function openCheckpoint(note, server) {
    const cut = note.lastIndexOf("\n\n");
    if (cut < 0) throw new Error("no signature block");
    const text2 = note.slice(0, cut + 1), sigs = note.slice(cut + 2);
    let signed = false;
    for (const line of sigs.split("\n")) {
      if (!line) continue;
      if (!line.startsWith("\u2014 ")) throw new Error("bad signature line");
      const [name, sig64] = line.slice(2).split(" ");
      const raw = b64(sig64);
      if (name !== server.name || hex(raw.slice(0, 4)) !== server.id) continue;
      if (!await ed25519Verify(server.pub, raw.slice(4), utf8(text2))) throw new Error("the server's signature does not verify");
      signed = true;
    }
    if (!signed) throw new Error("not signed by the server key");
    const lines = text2.split("\n");
    if (!/^[1-9][0-9]*$/.test(lines[1] ?? "")) throw new Error("the checkpoint size is not a number");
    return { origin: lines[0], size: Number(lines[1]), root: lines[2], text: text2 };
  }
  var CompactTree = class {
    nodes = [];
    size = 0;
    async append(recordHash2) {
      let node = await sha256(cat(new Uint8Array([0]), recordHash2)), size = 1;
      while (this.nodes.length && this.nodes[this.nodes.length - 1][0] === size) {
        const [, l] = this.nodes.pop();
        node = await sha256(cat(new Uint8Array([1]), l, node));
        size *= 2;
      }
      this.nodes.push([size, node]);
      this.size++;
    }
    async root() {
      let r = this.nodes[this.nodes.length - 1][1];
      for (let i = this.nodes.length - 2; i >= 0; i--) r = await sha256(cat(new Uint8Array([1]), this.nodes[i][1], r));
      return toB64(r);
    }
  };

  // src/lib/derive.ts
  var recordHash = (raw) => taggedHash("aar1/record", raw);
  var commandMessage = (envelope) => tagged("aar1/command", envelope);
  var secretCommitment = (game, secret) => taggedHash("aar1/server-secret", cat(lp(utf8(game)), secret));
  var entropyCommitment = (game, seat, genesisHash, entropy) => taggedHash("aar1/seat-entropy", cat(lp(utf8(game)), lp(utf8(seat)), genesisHash, entropy));
  var valueCommitment = (salt, valueBytes) => taggedHash("aar1/commit", cat(salt, valueBytes));

  // src/lib/handshake.ts
  var Handshake = class {
    /** ``genesis``: record 0 (its format version, body and hash); ``fail`` reports a refusal (the
     * web verifier stops there; the replay page marks it and goes on, so what a record says is kept
     * before it is checked, and a refusal does not cascade into every later record). */
    constructor(game, genesis, seats, fail) {
      this.game = game;
      this.genesis = genesis;
      this.seats = seats;
      this.fail = fail;
      const rs = genesis.body.ruleset;
      this.start = { t: "start", game: isMap(rs) ? rs.game : null, scenario: genesis.body.scenario };
    }
    commits = {};
    revealed = /* @__PURE__ */ new Map();
    // seat -> its entropy, in the order revealed
    committedAt = 0;
    // the seq after the last seat's commitment
    start;
    get done() {
      return this.seats.length > 0 && this.seats.every((s) => this.revealed.has(s));
    }
    get allCommitted() {
      return this.seats.every((s) => s in this.commits);
    }
    /** A commit record's signed commitment ``c`` by ``seat``, at ``seq``, with the record's events. */
    commit(seq, seat, c, events) {
      if (seat in this.commits || this.revealed.size) this.fail(`entropy commit by ${seat} out of order (SPEC.md 5.2)`);
      this.commits[seat] = c;
      if (this.allCommitted) this.committedAt = seq + 1;
      if (c.length !== 32) this.fail("an entropy commitment of another length than 32 (SPEC.md 5.2)");
      if (!same(events, [{ t: "entropy-commit", seat, commit: c }])) this.fail("the entropy-commit event differs from the signed envelope");
    }
    /** A reveal record's signed entropy ``e`` by ``seat``, its envelope's state ``stateSeq``, the record's events. */
    async reveal(seat, e, stateSeq, events) {
      if (!this.allCommitted || this.revealed.has(seat)) this.fail(`entropy reveal by ${seat} out of order (SPEC.md 5.2)`);
      const v2 = this.genesis.v >= 2;
      if (v2 && BigInt(stateSeq) < BigInt(this.committedAt)) this.fail(`entropy reveal by ${seat} bound to the log before every seat had committed (SPEC.md 5.2)`);
      this.revealed.set(seat, e);
      if (e.length !== 32) this.fail(`entropy revealed by ${seat} of another length than 32 (SPEC.md 5.2)`);
      const c = await entropyCommitment(this.game, seat, v2 ? this.genesis.hash : new Uint8Array(0), e);
      if (!eq(c, this.commits[seat])) this.fail(`seat ${seat}'s entropy does not match its commitment (SPEC.md 5.2)`);
      const want = [{ t: "entropy-reveal", seat, entropy: e }];
      if (this.done) want.push(this.start);
      if (!Array.isArray(events) || !same(events.slice(0, want.length), want) || want.length === 1 && events.length !== 1)
        this.fail("the entropy-reveal/start events differ from the signed envelope (SPEC.md 5.2)");
    }
  };

  // src/lib/cosign.ts
  async function seatCosignatures(note, text2, origin, seatOrder, seatKeys) {
    const ids = /* @__PURE__ */ new Map();
    for (const s of seatOrder) {
      const name = `${origin}/seat/${s}`;
      const id = (await sha256(cat(utf8(name), new Uint8Array([10, 4]), seatKeys[s]))).slice(0, 4);
      ids.set(`${name} ${hex(id)}`, s);
    }
    const seen = [];
    for (const line of note.slice(note.lastIndexOf("\n\n") + 2).split("\n")) {
      if (!line) continue;
      const [name, sig64] = line.slice(2).split(" ");
      let raw;
      try {
        raw = b64(sig64);
      } catch {
        throw new Error(`a checkpoint signature line of ${name} is not base64`);
      }
      const seat = ids.get(`${name} ${hex(raw.slice(0, 4))}`);
      if (seat === void 0) continue;
      if (raw.length !== 4 + 8 + 64) throw new Error(`seat ${seat}'s cosignature is ${raw.length} bytes, not 76 (SPEC.md 4.5)`);
      const ts = new DataView(raw.buffer, raw.byteOffset + 4, 8).getBigUint64(0);
      const ok = await verifySignature(seatKeys[seat], cat(utf8(`cosignature/v1
time ${ts}
`), utf8(text2)), raw.slice(12));
      if (!ok) throw new Error(`seat ${seat}'s cosignature of the checkpoint does not verify (SPEC.md 4.5)`);
      if (seen.includes(seat)) throw new Error(`seat ${seat} cosigned this checkpoint twice (SPEC.md 4.5)`);
      seen.push(seat);
    }
    return seen;
  }

  // src/lib/aead.ts
  var rotl = (x, n) => x << n | x >>> 32 - n;
  function block(key, counter, nonce) {
    const s = new Uint32Array([1634760805, 857760878, 2036477234, 1797285236, ...key, counter, ...nonce]);
    const x = s.slice();
    const qr = (a, b, c, d) => {
      x[a] += x[b];
      x[d] = rotl(x[d] ^ x[a], 16);
      x[c] += x[d];
      x[b] = rotl(x[b] ^ x[c], 12);
      x[a] += x[b];
      x[d] = rotl(x[d] ^ x[a], 8);
      x[c] += x[d];
      x[b] = rotl(x[b] ^ x[c], 7);
    };
    for (let i = 0; i < 10; i++) {
      qr(0, 4, 8, 12);
      qr(1, 5, 9, 13);
      qr(2, 6, 10, 14);
      qr(3, 7, 11, 15);
      qr(0, 5, 10, 15);
      qr(1, 6, 11, 12);
      qr(2, 7, 8, 13);
      qr(3, 4, 9, 14);
    }
    const out = new Uint8Array(64), dv = new DataView(out.buffer);
    for (let i = 0; i < 16; i++) dv.setUint32(4 * i, x[i] + s[i] >>> 0, true);
    return out;
  }
  var words = (b) => {
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength), w = new Uint32Array(b.length / 4);
    for (let i = 0; i < w.length; i++) w[i] = dv.getUint32(4 * i, true);
    return w;
  };
  function chacha20(key, nonce, counter, data) {
    const k = words(key), n = words(nonce), out = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i += 64) {
      const ks = block(k, counter + i / 64, n);
      for (let j = 0; j < 64 && i + j < data.length; j++) out[i + j] = data[i + j] ^ ks[j];
    }
    return out;
  }
  var le = (b) => b.reduceRight((n, x) => n << 8n | BigInt(x), 0n);
  var P1305 = (1n << 130n) - 5n;
  function poly1305(key, msg) {
    const r = le(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn, s = le(key.subarray(16, 32));
    let acc = 0n;
    for (let i = 0; i < msg.length; i += 16) {
      const chunk = msg.subarray(i, i + 16);
      acc = (acc + le(chunk) + (1n << BigInt(8 * chunk.length))) * r % P1305;
    }
    let t = acc + s & (1n << 128n) - 1n;
    const out = new Uint8Array(16);
    for (let i = 0; i < 16; i++, t >>= 8n) out[i] = Number(t & 255n);
    return out;
  }
  var pad16 = (n) => new Uint8Array((16 - n % 16) % 16);
  var le64 = (n) => {
    const o = new Uint8Array(8);
    new DataView(o.buffer).setBigUint64(0, BigInt(n), true);
    return o;
  };
  function aeadOpen(key, nonce, sealed, ad) {
    if (key.length !== 32 || nonce.length !== 12 || sealed.length < 16) return null;
    const ct = sealed.subarray(0, sealed.length - 16), tag = sealed.subarray(sealed.length - 16);
    const otk = block(words(key), 0, words(nonce)).subarray(0, 32);
    const mac = poly1305(otk, cat(ad, pad16(ad.length), ct, pad16(ct.length), le64(ad.length), le64(ct.length)));
    if (!eq(mac, tag)) return null;
    return chacha20(key, nonce, 1, ct);
  }
  var sealKeys = /* @__PURE__ */ new Map();
  function sealKey(secret, game) {
    const id = hex(secret) + " " + game;
    let k = sealKeys.get(id);
    if (!k) {
      k = taggedHmac(secret, "aar1/seal-key", lp(utf8(game)));
      sealKeys.set(id, k);
    }
    return k;
  }
  async function openSealed(secret, game, seq, k, commit, ct, size) {
    const where = cat(lp(utf8(game)), u64(seq), u32(k));
    const key = await sealKey(secret, game);
    const nonce = (await taggedHash("aar1/seal-nonce", where)).slice(0, 12);
    let pt = aeadOpen(key, nonce, ct, commit);
    if (pt === null) throw new Error("it does not decrypt (wrong key, nonce, commitment or bytes)");
    if (size !== null) {
      if (pt.length !== size) throw new Error(`the padded plaintext is ${pt.length} bytes, the declared size is ${size}`);
      const n = new DataView(pt.buffer, pt.byteOffset).getUint32(0);
      if (4 + n > size) throw new Error(`the plaintext length prefix (${n}) exceeds the declared size ${size} - 4`);
      if (pt.subarray(4 + n).some((x) => x !== 0)) throw new Error(`the padding after the ${n}-byte plaintext is not all zero bytes`);
      pt = pt.slice(4, 4 + n);
    }
    let d;
    try {
      d = strictDecode(pt);
    } catch (e) {
      throw new Error("its plaintext is not canonical: " + e.message);
    }
    const m = d;
    if (!m || typeof m !== "object" || Array.isArray(m) || m instanceof Uint8Array || Object.keys(m).sort().join(",") !== "salt,value" || !(m.salt instanceof Uint8Array)) throw new Error("it has the wrong shape (a map of exactly salt and value)");
    const valueBytes = encode(m.value);
    const c = await valueCommitment(m.salt, valueBytes);
    if (!eq(c, commit)) throw new Error("it does not match its commitment");
    return { salt: m.salt, value: m.value, valueBytes };
  }

  // src/lib/record.ts
  var MAX_RECORD = 2 ** 20;
  function readRecord(raw, v) {
    if (raw.length > MAX_RECORD) throw new Error(`a record of ${raw.length} bytes, over the 1 MiB limit (SPEC.md 1.2)`);
    let r;
    try {
      r = strictDecode(raw);
    } catch (e) {
      throw new Error("not canonical msgpack: " + e.message);
    }
    if (!exactKeys(r, ["body", "game", "kind", "prev", "seq", "v"]) || !isMap(r.body) || typeof r.kind !== "string" || typeof r.game !== "string" || !(isBytes(r.prev) && r.prev.length === 32) || !isInt(r.v) || !isInt(r.seq))
      throw new Error("not a record of exactly body, game, kind, prev, seq, v of their types (SPEC.md 1.2)");
    if (v === null ? r.v !== 1 && r.v !== 2 && r.v !== 3 : r.v !== v) throw new Error(`format version ${r.v} (SPEC.md 1.2: genesis's, 1, 2 or 3)`);
    return r;
  }
  function eventProblem(ev, i, seats) {
    if (!isMap(ev) || typeof ev.t !== "string") return `event ${i} is not a map with a text t (SPEC.md 1.4)`;
    if (ev.t === "sealed") {
      if (!exactKeys(ev, ["t", "to", "k", "commit", "ct"]) || typeof ev.to !== "string" || !seats.includes(ev.to))
        return `sealed event ${i} has exactly t, to, k, commit, ct and is for a seat of genesis (SPEC.md 1.4)`;
      if (!isInt(ev.k) || ev.k < 1 || !(isBytes(ev.commit) && ev.commit.length === 32)) return `sealed event ${i} has a bad index or commitment`;
      if (!isBytes(ev.ct)) return `sealed event ${i} has no ciphertext`;
    } else if (ev.t === "open") {
      if (!exactKeys(ev, ["t", "ref", "salt", "value"])) return `opening ${i} has exactly t, ref, salt, value (SPEC.md 1.4)`;
      if (!Array.isArray(ev.ref) || ev.ref.length !== 2 || !ev.ref.every(isInt) || !(isBytes(ev.salt) && ev.salt.length === 32))
        return `opening ${i}'s ref is [seq, k] and its salt 32 bytes (SPEC.md 1.4)`;
    }
    return null;
  }
  var EVENT_PLACES = {
    "entropy-commit": "commit",
    "entropy-reveal": "reveal",
    start: "start",
    resign: "ending",
    offer: "ending",
    accept: "ending",
    roll: "play",
    sealed: "play",
    open: "play"
  };
  function placementProblem(events, first) {
    for (let i = first; i < events.length; i++) {
      const ev = events[i];
      const t = isMap(ev) && typeof ev.t === "string" ? ev.t : null;
      if (t !== null && t in EVENT_PLACES && EVENT_PLACES[t] !== "play")
        return `step 6: event ${i} is a ${t} event, which stands only in its ${EVENT_PLACES[t]} place (SPEC.md 1.4)`;
    }
    return null;
  }
  function hiddenCoreEvent(value) {
    const t = isMap(value) && typeof value.t === "string" ? value.t : null;
    return t !== null && t in EVENT_PLACES && t !== "roll" ? t : null;
  }

  // src/lib/genesis.ts
  var MAX_SEALED_SIZE = 65536;
  var bytes32 = (v) => isBytes(v) && v.length === 32;
  var gameOrigin = (serverName, game) => `${serverName}/game/${game}`;
  function genesisProblem(v, b) {
    const keys = EndingsCheck.genesisKeys(v, b);
    if (!exactKeys(b, keys)) return `the genesis body has exactly the keys ${keys.join(", ")} (SPEC.md 1.3)`;
    if (!exactKeys(b.server, ["vkey", "origin"]) || !exactKeys(b.ruleset, ["game", "version"]) || typeof b.ruleset.game !== "string" || typeof b.ruleset.version !== "string" || typeof b.server.vkey !== "string" || typeof b.server.origin !== "string")
      return "genesis ruleset and server have exactly their two keys, texts (SPEC.md 1.3)";
    if (typeof b.scenario !== "string" || !isMap(b.options) || !bytes32(b.secret_commit) || !Object.values(b.options).every((x) => typeof x === "boolean" || typeof x === "string" || isInt(x)))
      return "genesis scenario, options (booleans, integers, texts) or secret_commit of the wrong type (SPEC.md 1.3)";
    const seats = b.seats;
    if (!Array.isArray(seats) || !seats.length) return "genesis has no seats";
    const names = [], keysSeen = [];
    for (const s of seats) {
      if (!exactKeys(s, ["name", "key"]) || typeof s.name !== "string" || !bytes32(s.key)) return "a genesis seat is not exactly a name and a 32-byte key";
      if (names.includes(s.name)) return `seat ${s.name} twice in genesis`;
      const weak = keyProblem(s.key);
      if (weak !== null) return `seat ${s.name} key is weak: it ${weak} (SPEC.md 7.4)`;
      if (keysSeen.some((k) => eq(k, s.key))) return `seat ${s.name}'s key is another seat's (SPEC.md 7.4)`;
      names.push(s.name);
      keysSeen.push(s.key);
    }
    if (v >= 2) {
      const z = b.sealed_sizes;
      const ok = exactKeys(z, ["command", "event"]) && Object.values(z).every((m) => isMap(m) && Object.entries(m).every(([s, n]) => names.includes(s) && isInt(n) && n >= 4 && n <= MAX_SEALED_SIZE));
      if (!ok) return `genesis sealed_sizes is {command: {seat: size}, event: {seat: size}}, sizes 4..${MAX_SEALED_SIZE} (SPEC.md 6.5)`;
    }
    return EndingsCheck.genesisProblem(v, b, names);
  }
  function sealedLength(sealedSizes, kind, seat, ct) {
    const m = isMap(sealedSizes) ? sealedSizes[kind] : void 0;
    const size = isMap(m) && typeof seat === "string" && Object.prototype.hasOwnProperty.call(m, seat) ? m[seat] : null;
    const ok = isInt(size) && isBytes(ct) && ct.length === size + 16;
    return { ok, what: `ciphertext length ${isBytes(ct) ? ct.length : "?"}${ok ? " = " : " but "}the declared ${kind} size for ${String(seat)}${size === null ? " (none declared)" : " " + String(size)} + 16 (SPEC.md 6.5)` };
  }

  // src/lib/envelope.ts
  var KIND_ACTION = { commit: "entropyCommit", reveal: "entropyReveal", command: "command" };
  var sameInt = (a, b) => (typeof a === "bigint" || typeof a === "number") && String(a) === String(b);
  function envelopeProblem(env, game, v, kind, seq, seat, ctr, prev, tail) {
    const v2 = v >= 2;
    const action = kind === "command" && v2 && env.action === "ending" ? "ending" : KIND_ACTION[kind];
    if (env.gameId !== game || env.seat !== seat || !sameInt(env.counter, ctr) || env.action !== action)
      return "the envelope names another game, seat, counter or action than its record";
    const s = Number(env.stateSeq);
    let skip = v >= 3 && !!tail && Number.isSafeInteger(s) && s >= 1 && s < seq;
    for (let n = s; skip && n < seq; n++) {
      const o = tail.offerBy(n);
      if (o === null || o === seat) skip = false;
    }
    if ((v2 || kind === "command") && !sameInt(env.stateSeq, seq) && !skip) return `the envelope is for another state than ${seq}`;
    const want = skip ? tail.hashOf(s - 1) : prev;
    if (v2 && !(isBytes(env.prev) && want && eq(env.prev, want)))
      return `the envelope is bound to another history (SPEC.md 7.1): its prev is not the hash of record ${(skip ? s : seq) - 1} but ${isBytes(env.prev) && env.prev.length ? hex(env.prev).slice(0, 16) + "\u2026" : "missing"}`;
    return null;
  }

  // src/lib/dom.ts
  var SVG_NS = "http://www.w3.org/2000/svg";
  var SAFE_ATTR = /^(id|class|title|open|colspan|role|width|height|viewBox|cx|cy|r|data-[a-z][a-z0-9-]*|aria-[a-z]+)$/;
  function put(el, attrs, children) {
    for (const [k, v] of Object.entries(attrs ?? {})) {
      if (v === null || v === void 0 || v === false) continue;
      if (!SAFE_ATTR.test(k)) throw new Error(`the page sets no ${k} attribute`);
      el.setAttribute(k, v === true ? "" : String(v));
    }
    const add2 = (c) => {
      if (c === null || c === void 0 || c === false || c === true) return;
      if (Array.isArray(c)) c.forEach(add2);
      else if (typeof c === "object") el.append(c);
      else el.append(document.createTextNode(String(c)));
    };
    children.forEach(add2);
  }
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    put(el, attrs, children);
    return el;
  }
  function svg(tag, attrs, ...children) {
    const el = document.createElementNS(SVG_NS, tag);
    put(el, attrs, children);
    return el;
  }
  var PICTURE_ELEMENTS = /* @__PURE__ */ new Set([
    "svg",
    "g",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "path",
    "text",
    "tspan",
    "title",
    "desc"
  ]);
  var PICTURE_ATTRS = /* @__PURE__ */ new Set([
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "dx",
    "dy",
    "width",
    "height",
    "points",
    "d",
    "viewBox",
    "preserveAspectRatio",
    "transform",
    "class",
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline"
  ]);
  function picture(markup) {
    const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
    const root = doc.documentElement;
    if (!root || root.getElementsByTagName("parsererror").length || root.localName === "parsererror")
      return { node: null, dropped: 0, error: "the picture is not well-formed XML" };
    if (root.namespaceURI === null && root.localName === "pre")
      return { node: h("pre", { class: "view" }, root.textContent ?? ""), dropped: root.children.length, error: null };
    let dropped = 0;
    const copy = (from) => {
      if (from.namespaceURI !== SVG_NS || !PICTURE_ELEMENTS.has(from.localName)) {
        dropped++;
        return null;
      }
      const to = document.createElementNS(SVG_NS, from.localName);
      for (const a of Array.from(from.attributes)) {
        if (a.namespaceURI === null && PICTURE_ATTRS.has(a.localName) && !/url\s*\(|[<>]|script:/i.test(a.value)) to.setAttribute(a.localName, a.value);
        else if (!(a.name === "xmlns")) dropped++;
      }
      for (const c of Array.from(from.childNodes)) {
        if (c.nodeType === Node.ELEMENT_NODE) {
          const e = copy(c);
          if (e) to.append(e);
        } else if (c.nodeType === Node.TEXT_NODE || c.nodeType === Node.CDATA_SECTION_NODE) to.append(document.createTextNode(c.nodeValue ?? ""));
      }
      return to;
    };
    const node = root.localName === "svg" ? copy(root) : null;
    if (!node) return { node: null, dropped: dropped || 1, error: `the picture is not an SVG picture (its root is <${root.localName}>)` };
    return { node, dropped, error: null };
  }

  // src/view_lib.ts
  var Refused = class extends Error {
  };
  var refuse = (m) => {
    throw new Refused(m);
  };
  async function marked(mark, seq, check, ok) {
    try {
      await check();
    } catch (e) {
      if (!(e instanceof Refused)) throw e;
      mark(seq, false, e.message);
      return false;
    }
    if (ok) mark(seq, true, ok);
    return true;
  }
  var pageHandshake = (game, genesis, seats) => new Handshake(game, genesis, seats, refuse);
  function pageEnding(env) {
    const e = env?.ending;
    if (!e) return null;
    if (e.resign) return { kind: "resign" };
    if (e.offer) return { kind: "offer", winner: e.offer.winner };
    if (e.accept) return { kind: "accept", offer: Number(e.accept.offer ?? 0), winner: e.accept.winner };
    return { kind: null };
  }
  var ACTIONS = { entropy_commit: "entropyCommit", entropy_reveal: "entropyReveal", command: "command", ending: "ending" };
  function pageEnvelope(env) {
    return {
      gameId: env.game_id ?? "",
      seat: env.seat ?? "",
      counter: env.counter ?? 0,
      stateSeq: env.state_seq ?? 0,
      prev: env.prev ?? new Uint8Array(0),
      action: Object.keys(ACTIONS).filter((k) => k in env).map((k) => ACTIONS[k]).join("+") || void 0
    };
  }
  var PageEndings = class {
    constructor(genesis, seats, mark) {
      this.mark = mark;
      this.check = new EndingsCheck(genesis, seats, (_step, m) => refuse(m));
    }
    check;
    run(seq, f) {
      try {
        f();
        return true;
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        this.mark(seq, false, e.message);
        return false;
      }
    }
    /** The keys a seat or end body of this game has beyond its own (SPEC.md 1.3). */
    get bodyKeys() {
      return this.check.bodyKeys();
    }
    isResignation(env) {
      return this.check.isResignation(pageEnding(env));
    }
    /** A seat record, after the page's own checks of it; ``env`` its decoded public envelope or null. */
    seat(seq, kind, body, env, starts, started) {
      const ending = pageEnding(env);
      if (this.run(seq, () => this.check.seatRecord(seq, kind, body, ending, starts, started)) && (this.check.clock || ending))
        this.mark(seq, true, (this.check.clock ? "the record's time: the server's, never before the previous record's, no deadline passed (SPEC.md 8.2)" : "") + (this.check.clock && ending ? "; " : "") + (ending ? `the ${String(ending.kind)}: its event is its signed envelope's, in its place (SPEC.md 8.1)` : ""));
      this.check.recordDone(seq, new Uint8Array(0), typeof body.seat === "string" ? body.seat : null);
    }
    /** What a format-3 envelope may be bound past (envelope.ts Tail): ``hashes[n]`` the page's hash of record n. */
    tail(hashes) {
      return { hashOf: hashes, offerBy: (n) => this.check.tail.get(n)?.[1] ?? null };
    }
    /** The end record: its keys, the record before it, its cause and outcome (SPEC.md 8, 8.3); the cause, or null if refused. */
    end(seq, body, prevKind) {
      let cause = null;
      if (this.run(seq, () => {
        cause = this.check.end(body, prevKind);
      }))
        this.mark(seq, true, `the end record's keys, its place and its cause (${String(cause.kind)}) and outcome (SPEC.md 8, 8.3)`);
      return cause;
    }
  };
  return __toCommonJS(view_lib_exports);
})();
