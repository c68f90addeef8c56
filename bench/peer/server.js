// The peer's server for the benchmark: boardgame.io's Server (its Lobby API to create and
// join matches, its SocketIO transport for the moves) with the duel of game.js.
//
//   node server.js [--store memory|flatfile] [--dir DIR]
//
// --store memory: boardgame.io's default in-memory store; flatfile: its FlatFile store (node-persist,
// one file per key under DIR). Listens on 127.0.0.1 on a free port and prints "port N" once it serves;
// stops on SIGTERM or when its stdin closes.
'use strict';

// as a deployed server runs: boardgame.io logs every action and checks every move's result for
// serializability unless NODE_ENV is production (set before it is loaded)
process.env.NODE_ENV = 'production';

const crypto = require('crypto');
const { Server, FlatFile } = require('boardgame.io/server');
const { makeDuel } = require('./game');

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
}

async function main() {
  const store = arg('--store', 'memory');
  const { privateKey } = crypto.generateKeyPairSync('ed25519');
  const opts = { games: [makeDuel({ serverKey: privateKey })], origins: ['http://127.0.0.1'] };
  if (store === 'flatfile') opts.db = new FlatFile({ dir: arg('--dir'), logging: false });
  else if (store !== 'memory') throw new Error(`unknown store ${store}`);
  const server = Server(opts);
  const running = await server.run({ port: 0 });
  process.stdout.write(`port ${running.appServer.address().port}\n`);
  const stop = () => {
    server.kill(running);
    process.exit(0);
  };
  // a store error inside a socket handler is an unhandled rejection, which would stop the server:
  // reported on stderr instead (the match it hit stalls, and the load generator says so)
  process.on('unhandledRejection', (e) => process.stderr.write(`server.js: ${e && e.message}\n`));
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
