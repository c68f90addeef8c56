// An example app on @afteraction/web (docs/web-client.md): join a game as a seat, draw the board,
// and play by clicking the map (MapChoices) or a choice's name. Build it like the page:
//   npx esbuild example/main.ts --bundle --format=esm --outfile=example/app.js
// and serve example/ from the game server's web port (or an origin it allows with --web-origin).
import {
  MapChoices, WebSeat, connect, h, idsOf, parseVkey, picture, seatKey, type Command, type YourDecision,
} from "../src/index.js";

const params = new URLSearchParams(location.search);
const out = document.getElementById("app")!;

async function board(game: string, viewJson: string): Promise<Node> {
  // the server draws a view (POST /ui/board); picture() copies the SVG inertly onto the page
  const r = await fetch("/ui/board", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game, view: JSON.parse(viewJson), commands: [] }) });
  const drawn = picture(String((await r.json()).svg));
  return drawn.node ?? h("p", null, drawn.error ?? "no picture");
}

async function main() {
  const clients = connect(location.origin);
  const key = await seatKey("example");                  // kept in this browser, not extractable
  const server = await parseVkey((await clients.game.getServerKey({})).vkey);
  const [gameId, seatName] = [params.get("game") ?? "", params.get("seat") ?? ""];
  out.replaceChildren(h("p", null, `my key ${key.id}: give it to whoever creates the game`));
  if (!gameId || !seatName) return;
  const seat = new WebSeat(clients, gameId, seatName, key, server);
  seat.withNames = true;                                  // every choice in words, with its pieces and places
  seat.onRefused = () => true;                            // a refused answer: asked again
  const choose = async (d: YourDecision): Promise<Command | null> => {
    const st = await clients.game.getState({ gameId, auth: await seat.auth() });
    const map = h("div", { class: "board" }, await board(st.game, st.viewJson));
    const mc = new MapChoices(d.names.map((n) => ({ text: n.text, group: n.group, refs: n.refs })));
    return new Promise((resolve) => {
      const list = h("ol", null, ...d.names.map((n, i) => {
        const b = h("button", null, n.text) as HTMLButtonElement;
        b.onclick = () => resolve(d.legalCommands[i]);
        return h("li", null, b);
      }));
      map.onclick = (ev) => {
        const r = mc.click(idsOf(ev.target as Element, map));
        if (r.kind === "choose") resolve(d.legalCommands[r.command]);
        else if (r.kind === "select") out.dataset.lit = r.places.join(" ");   // light these places up your way
      };
      out.replaceChildren(h("h2", null, d.decision?.prompt ?? ""), map, list);
    });
  };
  const outcome = await seat.play(choose);
  out.replaceChildren(h("p", null, `game over: ${JSON.stringify(outcome)}; ${seat.v.checked.records} records checked`));
}

void main();
