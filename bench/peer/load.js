// The peer benchmark's load generator: N concurrent duel games against server.js, each
// seat a boardgame.io Client with the SocketIO transport on its own connection (socket.io's forceNew:
// no multiplexing of seats on one socket), moves applied only on the server (`client: false`), one
// move = one websocket message each way ('update' out, the master's 'update'/'patch' back).
//
//   node load.js --server http://127.0.0.1:PORT --games N --pool K --warmup S --window S [--crypto]
//
// Before the window, each game slot makes K matches through the Lobby API (LobbyClient: create, then
// join both seats for their credentials) and starts their seats' clients, two sockets a match, and
// every client syncs; a slot whose match ends goes on with the next synced match of its pool, so the
// window measures moves, as bench_service_games' drivers do with their pools of games (neither side
// makes, joins or syncs a game inside the window). A pool that runs dry makes, joins and syncs a match
// inside the window (counted in "inline").
// One move: the seat to move sees the state (it arrives on its socket), signs its move (--crypto:
// Ed25519 over game.js's moveBytes) and sends it; its latency ends when the state after the move
// arrives back on that seat's socket. Prints "window-start" and "window-end" when the measured window
// starts and ends (the parent reads the server's CPU there), then one JSON line:
// {"moves": n, "lat": [seconds...], "ended": games ended in the window, "inline": n, "cpu": this process's CPU s}.
'use strict';

process.env.NODE_ENV = 'production'; // boardgame.io's client logs every action otherwise

const crypto = require('crypto');
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { makeDuel, moveBytes } = require('./game');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
}

const SERVER = arg('--server');
const GAMES = Number(arg('--games', '10'));
const POOL = Number(arg('--pool', '4'));
const WARMUP = Number(arg('--warmup', '0.5'));
const WINDOW = Number(arg('--window', '2'));
const CRYPTO = process.argv.includes('--crypto');
const game = makeDuel(); // the clients never run a move (`client: false`): no server key here
const lobby = new LobbyClient({ server: SERVER });
const now = () => Number(process.hrtime.bigint()) / 1e9;

function seatKeys() {
  const k = {};
  for (const p of ['0', '1']) {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
    k[p] = { priv: privateKey, pub: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') };
  }
  return k;
}

// a match made again from scratch if a Lobby call fails: Node's HTTP server closes an idle
// keep-alive connection after 5 s, and a request already on its way there fails ("other side closed")
async function newMatch(keys, tries = 3) {
  try {
    return await newMatchOnce(keys);
  } catch (e) {
    if (tries <= 1) throw e;
    return newMatch(keys, tries - 1);
  }
}

async function newMatchOnce(keys) {
  const setupData = { crypto: CRYPTO, nonce: crypto.randomBytes(16).toString('hex'),
    keys: { 0: keys['0'].pub, 1: keys['1'].pub } };
  const { matchID } = await lobby.createMatch('duel', { numPlayers: 2, setupData });
  const creds = {};
  for (const p of ['0', '1']) {
    creds[p] = (await lobby.joinMatch('duel', matchID, { playerID: p, playerName: `seat-${p}` })).playerCredentials;
  }
  return { matchID, creds };
}

// at most `limit` promises of `jobs` (functions) at once
async function limited(jobs, limit) {
  const out = new Array(jobs.length);
  let next = 0;
  async function worker() {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return out;
}

const stats = { lat: [], moves: 0, ended: 0, inline: 0 };
const phase = { start: Infinity, end: Infinity, go: false, stopped: false };

// one match and its two seats' clients, each on its own socket (forceNew: no multiplexing of seats)
class Pair {
  constructor(slot, match) {
    this.match = match;
    this.seats = ['0', '1'].map((p) => {
      const client = Client({
        game, numPlayers: 2, matchID: match.matchID, playerID: p, credentials: match.creds[p],
        multiplayer: SocketIO({ server: SERVER, socketOpts: { forceNew: true, transports: ['websocket'] } }),
      });
      const seat = { p, pair: this, client, pending: null, acted: -1 };
      client.subscribe((state) => slot.onState(seat, state));
      return seat;
    });
  }

  start() {
    for (const s of this.seats) s.client.start();
  }

  // boardgame.io adds a socket to its match's broadcast only when the socket's sync is answered: a
  // move made before the other seat's sync would never reach it, so a pair plays once both have synced
  ready() {
    return this.seats.every((s) => s.client.getState() !== null);
  }

  stop() {
    for (const s of this.seats) s.client.stop();
  }
}

// a game slot: its pool of pairs, made and synced before the window; the slot plays one at a time
class Slot {
  constructor(keys, pool) {
    this.keys = keys;
    this.pairs = pool.map((m) => new Pair(this, m));
    this.current = this.pairs[0];
    this.next = 1;
  }

  onState(seat, state) {
    if (!state) return;
    const t = now();
    if (seat.pending && state._stateID > seat.pending.stateID) { // the state after this seat's move
      if (seat.pending.t0 >= phase.start && t <= phase.end) { // as bench_service's Meter: inside the window
        stats.lat.push(t - seat.pending.t0);
        stats.moves += 1;
      }
      seat.pending = null;
    }
    const pair = seat.pair;
    if (pair !== this.current || !pair.ready()) return;
    if (!pair.kicked) { // the pair's second seat has just synced: both look at their states
      pair.kicked = true;
      this.kick();
      return;
    }
    if (state.ctx.gameover) {
      if (t >= phase.start && t <= phase.end) stats.ended += 1;
      this.nextPair();
      return;
    }
    if (!phase.go || phase.stopped || seat.pending || state.ctx.currentPlayer !== seat.p || seat.acted === state._stateID) return;
    seat.acted = state._stateID;
    const G = state.G;
    const name = seat.p === '0' ? 'pick' : 'guess';
    const n = 1 + crypto.randomInt(6);
    seat.pending = { t0: t, stateID: state._stateID };
    if (CRYPTO) {
      const sig = crypto.sign(null, moveBytes(name, G.round, n, G.head), this.keys[seat.p].priv).toString('base64');
      seat.client.moves[name](n, sig);
    } else {
      seat.client.moves[name](n);
    }
  }

  // every seat of the current pair looks at the state it has (the first moves, a new pair)
  kick() {
    this.current.kicked = true;
    for (const s of this.current.seats) this.onState(s, s.client.getState());
  }

  async nextPair() {
    if (this.next < this.pairs.length) {
      this.current = this.pairs[this.next++];
    } else { // the pool ran dry: a match made, joined and synced inside the window
      stats.inline += 1;
      this.current = null;
      const p = new Pair(this, await newMatch(this.keys));
      this.pairs.push(p);
      this.next = this.pairs.length;
      this.current = p;
      p.start(); // its seats' first states call onState, which plays once both have synced
    }
    this.kick();
  }

  stop() {
    for (const p of this.pairs) p.stop();
  }
}

async function main() {
  const keys = Array.from({ length: GAMES }, seatKeys);
  // the pools, 16 matches in the making at a time
  const jobs = keys.flatMap((k, i) => Array.from({ length: POOL }, () => async () => [i, await newMatch(k)]));
  const pools = keys.map(() => []);
  for (const [i, m] of await limited(jobs, 16)) pools[i].push(m);
  const slots = keys.map((k, i) => new Slot(k, pools[i]));
  // the clients start and sync 32 matches at a time (FlatFile's node-persist 3.1.0 was seen to read a
  // file half written under a thousand syncs at once, and its server to stop on that error)
  const pairs = slots.flatMap((s) => s.pairs);
  const t0 = now();
  for (let i = 0; i < pairs.length; i += 32) {
    const batch = pairs.slice(i, i + 32);
    for (const p of batch) p.start();
    while (!batch.every((p) => p.ready())) {
      if (now() - t0 > 300) throw new Error('clients not synced within 300 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const cpu0 = process.cpuUsage();
  const begin = now();
  phase.start = begin + WARMUP;
  phase.end = phase.start + WINDOW;
  phase.go = true;
  // the first moves: every seat to move acts on the state it has
  for (const s of slots) s.kick();
  await new Promise((r) => setTimeout(r, WARMUP * 1000));
  process.stdout.write('window-start\n');
  await new Promise((r) => setTimeout(r, WINDOW * 1000));
  process.stdout.write('window-end\n');
  phase.stopped = true;
  const cpu = process.cpuUsage(cpu0);
  for (const s of slots) s.stop();
  // exit once the line is out: a pipe's writes are asynchronous, and exit would cut a long line
  process.stdout.write(JSON.stringify({ ...stats, cpu: (cpu.user + cpu.system) / 1e6 }) + '\n', () => process.exit(0));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
