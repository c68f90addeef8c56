// The peer benchmark's load generator (issue 48): N concurrent duel games against server.js, each
// seat a boardgame.io Client with the SocketIO transport on its own connection (socket.io's forceNew:
// no multiplexing of seats on one socket), moves applied only on the server (`client: false`), one
// move = one websocket message each way ('update' out, the master's 'update'/'patch' back).
//
//   node load.js --server http://127.0.0.1:PORT --games N --pool K --warmup S --window S [--crypto]
//
// Before the window, each game slot creates K matches through the Lobby API (LobbyClient: create,
// then join both seats for their credentials) and connects its two seats' clients; a slot whose match
// ends goes on with the next one of its pool on the same connections (updateMatchID), so the window
// measures moves, as bench_service_games' drivers do with their pools of games. A pool that runs dry
// creates a match inside the window (counted in "inline").
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

class Slot {
  constructor(keys, pool) {
    this.keys = keys;
    this.pool = pool;
    this.match = this.pool.shift();
    this.seats = ['0', '1'].map((p) => {
      const client = Client({
        game, numPlayers: 2, matchID: this.match.matchID, playerID: p, credentials: this.match.creds[p],
        multiplayer: SocketIO({ server: SERVER, socketOpts: { forceNew: true, transports: ['websocket'] } }),
      });
      const seat = { p, client, pending: null, acted: -1, awaitingSync: false, synced: false };
      client.subscribe((state) => this.onState(seat, state));
      return seat;
    });
  }

  start() {
    for (const s of this.seats) s.client.start();
  }

  ready() {
    return this.seats.every((s) => s.client.getState() !== null);
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
    const other = this.seats[seat.p === '0' ? 1 : 0];
    if (seat.awaitingSync) {
      // until the next match's first sync (state 0), only the ended match's late states arrive
      if (state._stateID !== 0 || state.ctx.gameover) return;
      seat.awaitingSync = false;
      seat.pending = null;
      this.kick(other);
    } else if (!seat.synced) {
      seat.synced = true;
      this.kick(other);
    }
    // boardgame.io adds a socket to its match's broadcast only when the socket's sync is answered:
    // a move made before the other seat's sync would never reach it, so both seats sync first
    if (other.awaitingSync || !other.synced) return;
    if (state.ctx.gameover) {
      if (t >= phase.start && t <= phase.end) stats.ended += 1;
      this.nextMatch();
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

  kick(seat) { // the other seat has synced: this seat may be the one to move
    const st = seat.client.getState();
    if (st && seat.synced && !seat.awaitingSync) this.onState(seat, st);
  }

  async nextMatch() {
    for (const s of this.seats) {
      s.awaitingSync = true;
      s.acted = -1;
    }
    let m = this.pool.shift();
    if (!m) {
      stats.inline += 1;
      m = await newMatch(this.keys);
    }
    this.match = m;
    for (const s of this.seats) {
      // the credentials first (set, not updateCredentials, which would ask the server for a sync
      // of the old match with the new credentials), then one sync of the new match
      s.client.credentials = m.creds[s.p];
      s.client.transport.credentials = m.creds[s.p];
      s.client.updateMatchID(m.matchID);
    }
  }

  stop() {
    for (const s of this.seats) s.client.stop();
  }
}

async function main() {
  const keys = Array.from({ length: GAMES }, seatKeys);
  // the pools, 16 matches in the making at a time
  const jobs = keys.flatMap((k, i) => Array.from({ length: POOL }, () => async () => [i, await newMatch(k)]));
  const pools = keys.map(() => []);
  for (const [i, m] of await limited(jobs, 16)) pools[i].push(m);
  const slots = keys.map((k, i) => new Slot(k, pools[i]));
  for (const s of slots) s.start();
  const t0 = now();
  while (!slots.every((s) => s.ready())) {
    if (now() - t0 > 60) throw new Error('clients not synced within 60 s');
    await new Promise((r) => setTimeout(r, 10));
  }
  const cpu0 = process.cpuUsage();
  const begin = now();
  phase.start = begin + WARMUP;
  phase.end = phase.start + WINDOW;
  phase.go = true;
  // the first moves: every seat to move acts on the state it has
  for (const s of slots) for (const seat of s.seats) s.onState(seat, seat.client.getState());
  await new Promise((r) => setTimeout(r, WARMUP * 1000));
  process.stdout.write('window-start\n');
  await new Promise((r) => setTimeout(r, WINDOW * 1000));
  process.stdout.write('window-end\n');
  phase.stopped = true;
  const cpu = process.cpuUsage(cpu0);
  for (const s of slots) s.stop();
  process.stdout.write(JSON.stringify({ ...stats, cpu: (cpu.user + cpu.system) / 1e6 }) + '\n');
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
