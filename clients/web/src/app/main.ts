// The page a person plays with (served by `aar serve --web-listen`): a seat key kept in this
// browser, create or join a game, the board, the pending decision's legal choices in words, click
// to choose, the opponent's moves as they arrive, each seat's time left, resign and draw (SPEC.md
// 8.1-8.2); every record, checkpoint and opening checked here.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { CommandSchema, type Command } from "../gen/afteraction/v1/command_pb.js";
import { CommandEnvelopeSchema, SignedCommandSchema } from "../gen/afteraction/v1/envelope_pb.js";
import type { Clocks, YourDecision } from "../gen/afteraction/v1/game_service_pb.js";
import { b64, fromHex, hex, isBytes, toB64 } from "../lib/bytes.js";
import { connect } from "../lib/client.js";
import { parseVkey, type ServerKey } from "../lib/crypto.js";
import { gameKey, keyToPin, trustedKeys } from "../lib/keyhistory.js";
import { readRecord } from "../lib/record.js";
import { isMap } from "../lib/endings.js";
import { h, picture } from "../lib/dom.js";
import { seatKey, type SeatKey } from "../lib/keys.js";
import { LogVerifier, reasonOf, WebSeat, type Rec } from "../lib/seat.js";
import { SeatEvidence, type EvidenceStore } from "../lib/evidence.js";
import { MapChoices } from "../lib/mapplay.js";
import { boardClick, clearPlay, markBoard, plain, showDice, showEnd, showForm, startPlay } from "./play.js";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const clients = connect(location.origin, params.get("protocol") === "grpc-web" ? "grpc-web" : "connect");
let key: SeatKey, server: ServerKey;
let gameName = "";

function status(text: string, cls: "ok" | "bad" | "busy" = "ok") {
  const s = $("status");
  s.textContent = text;
  s.className = cls;
  if (cls === "bad") s.dataset.error = text;
}

async function ui(game: string, view: unknown, commands: Command[]): Promise<{ svg: string; summary: string[]; choices: string[] }> {
  const r = await fetch("/ui/board", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game, view, commands: commands.map((c) => toB64(toBinary(CommandSchema, c))) }),
  });
  if (!r.ok) throw new Error("the board could not be drawn: " + (await r.text()));
  return r.json();
}

// -- the server key: pinned in this browser on first sight -----------------------------------
// The first key of the server's key history is pinned (its only key before any rotation); a rotation
// is followed through the history's signatures (keyhistory.ts), and each game is checked with the key
// its genesis names, if that is the pinned key or a later one of the history (openGame).
let trusted: string[] = [];
async function pinServerKey(): Promise<ServerKey> {
  const res = await clients.game.getServerKey({});
  const got = res.vkey, slot = "aar-server-key:" + location.origin;
  let pinned = localStorage.getItem(slot);
  if (!pinned || params.get("trust") === "new") pinned = await keyToPin(got, res.keyHistory);
  try { trusted = await trustedKeys(pinned, got, res.keyHistory); } catch (e) {
    throw new Error(`${(e as Error).message}; open with ?trust=new only if you know why`);
  }
  localStorage.setItem(slot, pinned);
  $("server-key").textContent = trusted.length > 1
    ? `${got} (the key this browser pinned, ${pinned}, signed its way to it through ${trusted.length - 1} rotation(s))` : got;
  return parseVkey(got);
}

/** The server key game ``raw`` (its genesis record) names, if this browser trusts it. */
async function keyOfGame(raw: Uint8Array): Promise<ServerKey> {
  let vkey = server.vkey;
  try {
    const s = readRecord(raw, null).body.server;
    if (isMap(s) && typeof s.vkey === "string") vkey = s.vkey;
  } catch { /* not a genesis: LogVerifier says why */ }
  return gameKey(trusted, vkey);
}

// -- lobby -----------------------------------------------------------------------------------
async function lobby() {
  const rs = (await clients.game.listRulesets({})).rulesets;
  const gsel = $<HTMLSelectElement>("new-game"), ssel = $<HTMLSelectElement>("new-seat");
  const latest = new Map(rs.map((r) => [r.game, r]));
  // what the server names (games, seats) is text: <option>s made here, their text and value set as text
  const option = (v: string) => { const o = h("option", null, v) as HTMLOptionElement; o.value = v; return o; };
  gsel.replaceChildren(...[...latest.keys()].map(option));
  const seats = () => {
    const info = latest.get(gsel.value)!;
    ssel.replaceChildren(...info.seats.map(option));
    $<HTMLInputElement>("new-options").placeholder = info.optionsJson;   // the defaults
  };
  gsel.onchange = seats;
  seats();
  $("create").onclick = () => act(async () => {
    const info = latest.get(gsel.value)!;
    const theirs = fromHex($<HTMLInputElement>("opponent-key").value.trim().toLowerCase());
    if (theirs.length !== 32) throw new Error("the opponent's public key is 64 hex digits (their page shows it)");
    const seatsPb = info.seats.map((s) => ({ seat: s, publicKey: s === ssel.value ? key.publicRaw : theirs }));
    const optionsJson = $<HTMLInputElement>("new-options").value.trim();
    const num = (id: string) => { const n = Number($<HTMLInputElement>(id).value || 0); if (!Number.isInteger(n) || n < 0) throw new Error(`${id}: a whole number >= 0`); return n; };
    const clock = { decisionMs: BigInt(num("clock-decision") * 1000), totalMs: BigInt(num("clock-total") * 60_000), abandonMs: 0n };
    const timed = clock.decisionMs > 0n || clock.totalMs > 0n;   // else the server's default (its abandonment limit)
    const res = await clients.game.createGame({ game: info.game, seats: seatsPb, optionsJson, clock: timed ? clock : undefined });
    location.hash = "game=" + res.gameId;
  });
  $("join").onclick = () => { location.hash = "game=" + $<HTMLInputElement>("join-id").value.trim(); };
  $("spectate").onclick = () => { location.hash = "watch=" + $<HTMLInputElement>("join-id").value.trim(); };
}

async function act(f: () => Promise<void>) {
  try { await f(); } catch (e) { status(`${(e as Error).message} ${reasonOf(e)}`.trim(), "bad"); }
}

// -- a game ------------------------------------------------------------------------------------
const moves: string[] = [];
function describeRecord(rec: Rec, words: string | null): string {
  const b = rec.body as Record<string, unknown>;
  const who = typeof b.seat === "string" ? b.seat : "";
  if (rec.kind === "genesis") return `record 0: game ${rec.game} created`;
  if (rec.kind === "commit") return `record ${rec.seq}: ${who} committed to its dice entropy`;
  if (rec.kind === "reveal") return `record ${rec.seq}: ${who} revealed its dice entropy`;
  if (rec.kind === "end") {
    const c = b.cause as Record<string, unknown> | undefined, o = b.outcome as Record<string, unknown> | undefined;
    return `record ${rec.seq}: the game ended${o ? ": " + String(o.reason) : ""}${c ? ` (cause: ${String(c.kind)})` : ""}`;
  }
  const ev = Array.isArray(b.events) && b.events.length === 1 ? b.events[0] as Record<string, unknown> : null;
  const ending = (commandOf(rec) === null && !b.sealed && rec.kind === "command") ? ev : null;   // SPEC.md 8.1
  if (ending?.t === "resign") return `record ${rec.seq}: ${who} resigned`;
  if (ending?.t === "offer") return `record ${rec.seq}: ${who} offered ${ending.winner === null ? "a draw" : `a win for ${String(ending.winner)}`}`;
  if (ending?.t === "accept") return `record ${rec.seq}: ${who} accepted the offer of record ${String(ending.offer)}`;
  // the record's public dice, as they fell (engine/names.py reads them the same way)
  const rolls = (Array.isArray(b.events) ? b.events as Record<string, unknown>[] : []).filter((e) => e.t === "roll")
    .map((e) => `${String(e.die)}: ${String(e.result)} (${String(e.rule)})`);
  const dice = rolls.length ? `; rolled ${rolls.join("; ")}` : "";
  if (b.sealed) return `record ${rec.seq}: ${who} made a hidden (sealed) move${dice}`;
  return `record ${rec.seq}: ${who}: ${words ?? "a move"}${dice}`;
}

function commandOf(rec: Rec): Command | null {
  const env = (rec.body as Record<string, unknown>).env;
  if (!isBytes(env)) return null;
  const e = fromBinary(CommandEnvelopeSchema, env);
  return e.action.case === "command" ? e.action.value : null;
}

function showVerified(v: LogVerifier) {
  const c = v.checked;
  const s = $("status");
  if (s.className === "bad") return;
  status(`checked in this browser: ${c.records} records (hash chain, signatures, envelopes), ${c.checkpoints} server checkpoints (signature, Merkle root), ${c.openings} private openings against their commitments`);
  s.dataset.records = String(c.records);
  s.dataset.openings = String(c.openings);
}

// -- each seat's time left (GetState and Watch clocks, SPEC.md 8.2): the running seat's counts down here
let clockTimer: number | undefined;
let lastClocks: { c: Clocks; at: number } | null = null;
const fmt = (ms: number) => {
  if (ms < 0) return "no limit";
  const s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : h ? `${h}h ${String(m).padStart(2, "0")}m` : `${m}:${String(s % 60).padStart(2, "0")}`;
};
function renderClocks() {
  if (!lastClocks) return;
  const { c, at } = lastClocks, gone = Date.now() - at;
  const box = $("clocks");
  box.replaceChildren();
  for (const s of c.seats) {
    const run = s.running, left = Number(s.leftMs), total = Number(s.totalLeftMs);
    const d = document.createElement("div");
    d.className = run ? "running" : "";
    d.dataset.seat = s.seat;
    d.dataset.leftMs = String(left);
    d.textContent = `${s.seat}: ${fmt(left < 0 ? -1 : Math.max(0, left - (run ? gone : 0)))} for this decision` +
      (total >= 0 ? `, ${fmt(Math.max(0, total - (run ? gone : 0)))} in all` : "") + (run ? " (running)" : "");
    box.append(d);
  }
  const ab = Number(c.abandonLeftMs);
  if (ab >= 0) {
    const d = document.createElement("div");
    d.textContent = `abandoned if no seat acts within ${fmt(Math.max(0, ab - gone))}`;
    box.append(d);
  }
}
function showClocks(c: Clocks) {
  if (!c.seats.length) return;
  lastClocks = { c, at: Date.now() };
  renderClocks();
  if (clockTimer === undefined && $("game").dataset.ended !== "1") clockTimer = window.setInterval(renderClocks, 1000);
}
function stopClocks() { if (clockTimer !== undefined) { clearInterval(clockTimer); clockTimer = undefined; } }

async function redraw(seat: WebSeat | null, gameId: string, v: LogVerifier) {
  const st = await clients.game.getState({ gameId, auth: seat ? await seat.auth() : undefined });
  gameName = st.game;
  const view = JSON.parse(st.viewJson);
  const pic = await ui(st.game, view, []);
  // the server's picture, copied through dom.ts's fixed list of SVG shapes and attributes (nothing
  // of it runs or loads); its summary lines as text
  const drawn = picture(String(pic.svg));
  $("board").replaceChildren(drawn.node ?? h("div", { class: "note" }, `the server's picture is not drawn: ${drawn.error}`));
  $("board").dataset.dropped = String(drawn.dropped);
  markBoard();   // the pending decision's pieces and places, again on the new picture
  $("board").dataset.drawnAt = String(performance.now());
  $("summary").replaceChildren(...(Array.isArray(pic.summary) ? pic.summary : []).map((l) => h("div", null, String(l))));
  const said = (() => { try { return String((JSON.parse(st.outcomeJson) as Record<string, unknown>).reason ?? ""); } catch { return ""; } })();
  $("prompt").textContent = st.ended ? `game over${said ? ": " + said : ""}` : st.decision ? `waiting for ${st.decision.seat}: ${st.decision.prompt}` : "";
  if (st.clocks) showClocks(st.clocks);
  if (st.ended) {
    $("game").dataset.ended = "1";
    // the cause as this browser verified it from the end record (the server's cause_json says the same)
    const cause = v.cause ?? (st.causeJson ? JSON.parse(st.causeJson) : { kind: "rules" });
    $("outcome").textContent = `${st.outcomeJson} (cause: ${JSON.stringify(cause)})`;   // as data; #end says it in words
    $("outcome").hidden = true;
    $("game").dataset.cause = String((cause as Record<string, unknown>).kind);
    $("endings").hidden = true;
    stopClocks();
    $("clocks").replaceChildren();
    clearPlay();
    $("choices").replaceChildren();
    const c = v.checked;
    showEnd(JSON.parse(st.outcomeJson || "null"), cause as Record<string, unknown>,
      `checked in this browser: ${c.records} records, ${c.checkpoints} checkpoints, ${c.openings} openings`, () => void act(() => exportLog(gameId)));
  }
  showVerified(v);
}

async function recordWords(rec: Rec): Promise<string | null> {
  const cmd = commandOf(rec);
  if (!cmd) return null;
  return (await ui(gameName, {}, [cmd]).catch(() => null))?.choices[0] ?? null;
}

// the moves in the order they arrived (their words come back from /ui/board one by one)
let movesChain: Promise<void> = Promise.resolve();
function addRecordLine(rec: Rec) {
  const b = rec.body as Record<string, unknown>;
  const rolls = (Array.isArray(b.events) ? b.events as Record<string, unknown>[] : []).filter((e) => e.t === "roll")
    .map((e) => ({ die: String(e.die), result: String(e.result), rule: String(e.rule), faces: Array.isArray(e.faces) ? e.faces.map(String) : [] }));
  showDice(rec.seq, typeof b.seat === "string" ? b.seat : "", rolls);
  const words = recordWords(rec);
  movesChain = movesChain.then(async () => addMove(describeRecord(rec, await words)));
}

function addMove(line: string) {
  moves.push(line);
  const li = document.createElement("li");
  li.textContent = line;
  $("moves").prepend(li);
}

async function openGame(gameId: string, spectate: boolean) {
  $("lobby").hidden = true;
  $("game").hidden = false;
  $("game-id").textContent = gameId;
  $("export").onclick = () => act(() => exportLog(gameId));
  $("board").onclick = boardClick;
  $("zoom").onclick = () => { const z = $("boardbox").classList.toggle("zoomed"); $("zoom").textContent = z ? "Fit the map to the page" : "Zoom the map (scroll to move)"; };
  // the genesis names the seats' keys: this browser's key makes it a seat, else a spectator
  let first;
  try {
    first = await clients.audit.getRecords({ gameId, fromSeq: 0n, limit: 1 });
    server = await keyOfGame(first.records[0].record);   // this game's key: its genesis names it
  } catch (e) {
    // an unknown game id (or a server that cannot answer): said in the lobby, which stays usable
    $("game").hidden = true;
    $("lobby").hidden = false;
    history.replaceState(null, "", location.pathname + location.search);
    status(`cannot open game ${gameId}: ${(e as Error).message} ${reasonOf(e)}`.trim(), "bad");
    return;
  }
  status(`opening game ${gameId}`, "busy");   // a failed join before this one is over
  const probe = new LogVerifier(server, gameId);
  await probe.add(first.records[0].record, first.records[0].checkpoint);
  gameName = String((probe.genesis!.body.ruleset as Record<string, unknown>).game);   // the ruleset, for words
  const mine = spectate ? undefined : Object.keys(probe.seatKeys).find((s) => hex(probe.seatKeys[s]) === key.id);
  $("role").textContent = mine ? `you play seat ${mine}` : "you are a spectator";
  $("game").dataset.role = mine ?? "spectator";
  // One redraw at a time, and at most one more after it however many records arrived meanwhile
  // (the board is the state now, not per record); the checks' counts are shown at once.
  let pending: Promise<void> = Promise.resolve(), dirty = false, drawing = false;
  const refresh = (seat: WebSeat | null, v: LogVerifier) => {
    showVerified(v);
    dirty = true;
    if (drawing) return;
    drawing = true;
    pending = (async () => {
      while (dirty) {
        dirty = false;
        try { await redraw(seat, gameId, v); } catch (e) { status(String(e), "bad"); }
      }
      drawing = false;
    })();
  };
  if (!mine) return spectateGame(gameId, refresh);
  const ent = entropyFor(gameId, mine);
  const keptSlot = `aar-checkpoint:${gameId}:${mine}`;   // the latest checkpoint this seat verified (SPEC.md 11)
  const seat = new WebSeat(clients, gameId, mine, key, server, ent, localStorage.getItem(keptSlot) ?? undefined);
  seat.keep = (note) => { if (note) localStorage.setItem(keptSlot, note); };
  seat.withNames = true;   // the choices by the ruleset's names
  keepEvidence(seat, gameId, mine);
  const cosSlot = `aar-cosigned:${gameId}:${mine}`;      // cosigned once: a reload does not cosign again
  seat.cosignedSize = Number(localStorage.getItem(cosSlot) ?? 0);
  seat.keepRefused = (counter, signed) =>   // SPEC.md 8.2: the seat's evidence of an answer the game's end overtook
    localStorage.setItem(`aar-refused:${gameId}:${mine}:${counter}`, toB64(toBinary(SignedCommandSchema, signed)));
  let cancelChoice: ((seq: number) => void) | null = null;
  seat.onEvent = (e) => {
    if (e.kind === "record") {
      addRecordLine(e.rec);
      cancelChoice?.(e.rec.seq);
      showEndings(seat);
      refresh(seat, seat.v);
    } else if (e.kind === "clocks") {
      showClocks(e.clocks);
    } else if (e.kind === "opening") {
      const li = document.createElement("li");
      let words = e.valueJson;
      try { words = plain(JSON.parse(e.valueJson)); } catch { /* shown as sent */ }
      li.textContent = `record ${e.seq} value ${e.k}: ${words} (opening checked against its commitment)`;
      li.dataset.json = e.valueJson;
      $("openings").append(li);
    }
  };
  const choose = async (d: YourDecision): Promise<Command | null> => {
    await pending;
    const st = await clients.game.getState({ gameId, auth: await seat.auth() });
    // the ruleset's names of the commands (YourDecision.names); words from /ui/board for a server without
    const named = d.names.length === d.legalCommands.length;
    const words = named ? d.names.map((n) => n.text) : (await ui(st.game, JSON.parse(st.viewJson), d.legalCommands)).choices;
    $("prompt").textContent = `your decision: ${d.decision?.prompt ?? ""}`;
    $("prompt").dataset.seq = String(d.stateSeq);   // which decision the choices answer
    const box = $("choices");
    box.replaceChildren();
    clearPlay();
    if (Number(d.stateSeq) < seat.nextSeq || seat.v.ended) return null;   // overtaken while the words came
    return new Promise((resolve) => {
      const done = (c: Command | null) => {
        cancelChoice = null; clearPlay(); box.replaceChildren();
        if (c) { $("prompt").textContent = "sent; waiting for the server"; $("refusal").hidden = true; }
        resolve(c);
      };
      // a record that overtakes this prompt (an ending, the clock) takes its buttons away
      cancelChoice = (seq) => { if (seq >= Number(d.stateSeq)) done(null); };
      const button = (i: number, cls = "choice") => {
        const c = d.legalCommands[i];
        const b = h("button", { class: cls, "data-i": i, "data-command": toB64(toBinary(CommandSchema, c)),
          "data-group": named ? d.names[i].group : null,
          "data-refs": named ? JSON.stringify(d.names[i].refs.map((r) => ({ kind: r.kind, id: r.id, name: r.name, position: r.position }))) : null,
        }, words[i] ?? `choice ${i + 1}`) as HTMLButtonElement;
        if (named) b.title = d.names[i].refs.map((r) => `${r.name} (${r.kind} ${r.id}${r.position && r.position !== r.id ? " at " + r.position : ""})`).join("; ");
        b.onclick = () => done(c);
        return b;
      };
      // on the map: the pieces and places the choices name, click a piece then a lit place
      const mc = named ? new MapChoices(d.names.map((n) => ({ text: n.text, group: n.group, refs: n.refs }))) : null;
      if (mc) startPlay(d, words, mc, button, done);
      // a form for any answer, started from a listed one (the described spaces: a team, a result, casualties)
      showForm(d, words, done, !!mc && mc.pieces.length + mc.places.length > 0);
      // grouped as the ruleset groups them ("Place a KR cadre face down: pick a place"), each group where its first is
      const groups = new Map<string, number[]>();
      d.legalCommands.forEach((_, i) => {
        const g = named ? d.names[i].group : "";
        groups.set(g, [...(groups.get(g) ?? []), i]);
      });
      for (const [g, idx] of groups) {
        if (groups.size > 1 && g) box.append(h("div", { class: "choice-group" }, `${g} (${idx.length})`));
        for (const i of idx) box.append(button(i));
      }
    });
  };
  // an answer the rules refuse: said in words with its rule, and the decision is asked again
  seat.onRefused = (e, reason) => {
    const err = e as { code?: number; rawMessage?: string; message?: string };
    if (![3, 9, 11].includes(err.code ?? 0)) return false;   // INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE
    const r = $("refusal");
    r.textContent = `refused (${reason}): ${err.rawMessage ?? err.message ?? ""}. Nothing was signed into the log; choose again.`;
    r.dataset.reason = reason;
    r.hidden = false;
    return true;
  };
  // resign asks once more on the page (a second click), then signs
  const rb = $<HTMLButtonElement>("resign");
  rb.onclick = () => {
    if (rb.dataset.armed !== "1") { rb.dataset.armed = "1"; rb.textContent = "Click again to resign (the other seat wins)"; return; }
    rb.dataset.armed = ""; rb.textContent = "Resign";
    void endingAct(() => seat.resign());
  };
  $("offer-draw").onclick = () => endingAct(() => seat.offer(null));
  try {
    await seat.play(choose);
    localStorage.setItem(cosSlot, String(seat.cosignedSize));
    $("game").dataset.cosigned = String(seat.cosignedSize);
    showEvidence(seat);
    refresh(seat, seat.v);
    await pending;
  } catch (e) {
    $("choices").replaceChildren();
    status(`STOPPED, nothing more is signed: ${(e as Error).message}`, "bad");
    showEvidence(seat);
  }
}

// -- the seat's evidence (SPEC.md 7.5, 8.2): every envelope kept before it is sent and every
// receipt, in this browser's storage per game and seat (as its key and checkpoint are), until the
// record that carries it is verified; server faults shown and kept; each kept file downloadable
// under the name and in the bytes `aar evidence` reads (clients/python/evidence.py's).
function keepEvidence(seat: WebSeat, gameId: string, mine: string) {
  const prefix = `aar-evidence:${gameId}:${mine}:`;
  let shown = false;   // the panel follows what is kept, at most once a turn of the event loop
  const later = () => { if (!shown) { shown = true; setTimeout(() => { shown = false; showEvidence(seat); }, 0); } };
  const store: EvidenceStore = {
    put: (n, b) => { localStorage.setItem(prefix + n, toB64(b)); later(); },
    drop: (n) => { localStorage.removeItem(prefix + n); later(); },
    list: () => Object.keys(localStorage).filter((k) => k.startsWith(prefix)).sort()
      .map((k) => [k.slice(prefix.length), b64(localStorage.getItem(k)!)] as [string, Uint8Array]),
  };
  seat.evidence = new SeatEvidence(store, mine, gameId);
  seat.evidence.onFault = () => showEvidence(seat);
  showEvidence(seat);
}

function showEvidence(seat: WebSeat) {
  let box = document.getElementById("evidence-box");
  if (!box) {
    box = h("section", { id: "evidence-box" });
    $("side").append(box);
  }
  const ev = seat.evidence, files = ev.store.list();
  const faults = ev.faults.map((f) => h("div", { class: "fault" }, `SERVER FAULT: ${f}`));
  const withheld = ev.withheld ? [h("div", { id: "withheld", class: "fault" }, `NOT COSIGNED: ${ev.withheld}`)] : [];
  const items = files.map(([name, bytes]) => {
    const b = h("button", { class: "evidence-file" }, `download ${name}`) as HTMLButtonElement;
    b.dataset.name = name;
    b.onclick = () => download(bytes, `${seat.gameId}-${seat.seat}-${name}`);
    return h("li", null, b);
  });
  box.replaceChildren(h("h2", null, "Your evidence"), ...faults, ...withheld,
    h("div", { class: "note" }, files.length ? "kept in this browser until the log carries it (SPEC.md 8.2):" : "nothing kept"),
    h("ul", { id: "evidence" }, ...items));
  box.dataset.faults = String(ev.faults.length);
  box.dataset.withheld = ev.withheld ? "1" : "";
}

function download(bytes: Uint8Array, name: string) {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: "application/octet-stream" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// An ending command the server refuses (an offer that lapsed meanwhile: NO_OFFER) is said beside
// the buttons; the game and its checks go on.
async function endingAct(f: () => Promise<unknown>) {
  try { await f(); } catch (e) {
    const box = $("offer-box");
    box.textContent = `refused: ${(e as Error).message} ${reasonOf(e)}`.trim();
    box.dataset.error = box.textContent;
  }
}

// -- resign and draw (SPEC.md 8.1): out of turn; an offer stands until the other seat answers it ----
function showEndings(seat: WebSeat) {
  const v = seat.v;
  $("endings").hidden = v.ended || !v.genesis || v.genesis.v < 2;
  $("offer-draw").hidden = !v.started;
  const box = $("offer-box");
  box.replaceChildren();
  const o = v.standingOffer;
  if (!o || v.ended) return;
  const what = o[2] === null ? "a draw" : `a win for ${String(o[2])}`;
  if (o[1] === seat.seat) { box.textContent = `you offered ${what} (record ${o[0]}); ${stands(seat, "it stands until the other seat answers it")}`; return; }
  const p = document.createElement("span");
  p.textContent = `${o[1]} offers ${what} (record ${o[0]}): `;
  const yes = document.createElement("button"), no = document.createElement("button");
  yes.id = "accept-offer"; yes.textContent = "Accept";
  no.id = "decline-offer"; no.textContent = "Decline";
  yes.onclick = () => { box.replaceChildren(); void endingAct(() => seat.accept(o[0])); };
  // declining signs nothing: the offer stands until this seat's next move answers it (SPEC.md 8.1)
  no.onclick = () => { box.textContent = `declined: ${stands(seat, `${o[1]}'s offer stands until your next move, which declines it`)}`; };
  box.append(p, yes, no);
}

// SPEC.md 8.1: in format 3 an offer stands until another seat answers it (in v = 2 it lapsed at the next record)
const stands = (seat: WebSeat, v3: string) => (seat.v.genesis && seat.v.genesis.v >= 3 ? v3 : "it lapses at the next record");

async function spectateGame(gameId: string, refresh: (s: null, v: LogVerifier) => void) {
  const v = new LogVerifier(server, gameId);
  try {
    for await (const m of clients.game.watch({ gameId, fromSeq: 0n })) {
      if (m.kind.case === "record") {
        const rec = await v.add(m.kind.value.record, m.kind.value.checkpoint);
        addRecordLine(rec);
        refresh(null, v);
      } else if (m.kind.case === "checkpoint") await v.checkCheckpoint(m.kind.value.note);
      else if (m.kind.case === "clocks") showClocks(m.kind.value);   // public: every seat's time left
      else throw new Error(`a spectator's stream carried a ${m.kind.case}: the server leaks`);
    }
  } catch (e) { status(`STOPPED: ${(e as Error).message}`, "bad"); }
}

// The seat's dice entropy must outlive a reload between its commitment and its reveal: kept in this
// origin's storage per game and seat (it is public once revealed, and useless to anyone without the
// seat's non-extractable key).
function entropyFor(gameId: string, seat: string): Uint8Array {
  const slot = `aar-entropy:${gameId}:${seat}`;
  const got = localStorage.getItem(slot);
  if (got) return b64(got);
  const e = crypto.getRandomValues(new Uint8Array(32));
  localStorage.setItem(slot, toB64(e));
  return e;
}

async function exportLog(gameId: string) {
  const parts: Uint8Array[] = [];
  for await (const m of clients.audit.exportBundle({ gameId })) parts.push(m.chunk);
  const url = URL.createObjectURL(new Blob(parts as BlobPart[], { type: "application/octet-stream" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `${gameId}.aar`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function main() {
  try {
    key = await seatKey(params.get("key") ?? "default");
    $("pubkey").textContent = key.id;
    server = await pinServerKey();
    await lobby();
  } catch (e) { status((e as Error).message, "bad"); return; }
  const route = () => {
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.get("game")) void openGame(h.get("game")!, false);
    else if (h.get("watch")) void openGame(h.get("watch")!, true);
  };
  window.addEventListener("hashchange", () => { if ($("game").hidden) route(); else location.reload(); });
  status("ready: create a game or join one");
  route();
}

void main();
void create;
