// The duel (engine/games/duel/rules.py, SPEC.md 12) as a boardgame.io 0.50 game, written from
// boardgame.io's documentation (Game object: setup, moves in long form with `client: false`, turn
// with maxMoves, endIf, playerView) for the peer benchmark (bench/peer/README.md).
//
// Three rounds: player "0" (seat a) picks a number 1-6 in secret (playerView hides it from "1"),
// player "1" (seat b) guesses; a right guess scores 2 for b, otherwise a d6 (boardgame.io's
// server-side random) scores 1 for a on 4-6, 1 for b on 1-3. Highest score wins; ties are draws.
//
// `client: false` on every move: moves are applied only on the server (the client sends the action,
// the master runs it), as our service applies commands only in the referee.
//
// makeDuel({ serverKey }) with setupData.crypto true adds the per-move cryptography:
//   - the seat signs each move with Ed25519 over "duel|<move>|<round>|<number>|<chain head>" (the
//     head binds the move to the log's end, as our envelopes bind to the head) and the server verifies
//     it against the seat's public key given at match creation (setupData.keys);
//   - a SHA-256 chain: head = SHA-256(head || move bytes || signature);
//   - an Ed25519 server signature over each new head (G.receipt), sent to both seats with the state.
'use strict';

const crypto = require('crypto');
const { INVALID_MOVE } = require('boardgame.io/core');

const ROUNDS = 3;

function moveBytes(name, round, number, head) {
  return Buffer.from(`duel|${name}|${round}|${number}|${head}`);
}

function publicKey(b64) {
  return crypto.createPublicKey({ key: Buffer.from(b64, 'base64'), format: 'der', type: 'spki' });
}

function makeDuel({ serverKey } = {}) {
  const keyCache = new Map(); // base64 SPKI -> KeyObject: parsed once, as our service caches seat keys

  function seatKey(b64) {
    let k = keyCache.get(b64);
    if (!k) {
      k = publicKey(b64);
      keyCache.set(b64, k);
    }
    return k;
  }

  // the per-move crypto; false (the move is refused) if the seat's signature does not verify
  function sealMove(G, playerID, name, number, sig) {
    if (!G.crypto) return true;
    const msg = moveBytes(name, G.round, number, G.head);
    const s = typeof sig === 'string' ? Buffer.from(sig, 'base64') : null;
    if (!s || !crypto.verify(null, msg, seatKey(G.keys[playerID]), s)) return false;
    G.head = crypto.createHash('sha256').update(Buffer.from(G.head, 'hex')).update(msg).update(s).digest('hex');
    G.receipt = crypto.sign(null, Buffer.from(G.head, 'hex'), serverKey).toString('base64');
    return true;
  }

  function number(n) {
    return Number.isInteger(n) && n >= 1 && n <= 6;
  }

  return {
    name: 'duel',
    minPlayers: 2,
    maxPlayers: 2,
    setup: (_, setupData) => {
      const d = setupData || {};
      return {
        round: 1,
        rounds: ROUNDS,
        score: { a: 0, b: 0 },
        pick: null,
        crypto: !!d.crypto,
        keys: d.keys || {},
        // the chain's start: the match's parameters (a nonce makes every match's chain its own)
        head: crypto.createHash('sha256').update(JSON.stringify([d.nonce || '', d.keys || {}])).digest('hex'),
        receipt: null,
      };
    },
    turn: { minMoves: 1, maxMoves: 1 },
    moves: {
      pick: {
        client: false,
        move: ({ G, playerID }, n, sig) => {
          if (playerID !== '0' || G.pick !== null || !number(n)) return INVALID_MOVE;
          if (!sealMove(G, playerID, 'pick', n, sig)) return INVALID_MOVE;
          G.pick = n;
        },
      },
      guess: {
        client: false,
        move: ({ G, playerID, random }, n, sig) => {
          if (playerID !== '1' || G.pick === null || !number(n)) return INVALID_MOVE;
          if (!sealMove(G, playerID, 'guess', n, sig)) return INVALID_MOVE;
          if (n === G.pick) G.score.b += 2;
          else if (random.D6() >= 4) G.score.a += 1;
          else G.score.b += 1;
          G.round += 1;
          G.pick = null;
        },
      },
    },
    endIf: ({ G }) => {
      if (G.round <= G.rounds) return undefined;
      const { a, b } = G.score;
      return { winner: a > b ? '0' : b > a ? '1' : null, score: { a, b } };
    },
    // seat b never sees a's pick before the guess reveals it (the state after the guess has pick null)
    playerView: ({ G, playerID }) => (playerID === '0' || G.pick === null ? G : { ...G, pick: 'hidden' }),
  };
}

module.exports = { makeDuel, moveBytes, ROUNDS };
