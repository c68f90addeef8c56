// The page's map-first play: the pieces and places the pending decision's choices name
// are marked on the board; a click on a piece lights its destinations, a click on a lit place plays
// the choice that goes there (or offers the few that do); a form writes any answer of a decision
// whose answers the server only samples; the dice as they fall; the end of the game in words.
// Everything a server or a log says reaches the page as text (dom.ts).
import type { Command } from "../gen/afteraction/v1/command_pb.js";
import type { YourDecision } from "../gen/afteraction/v1/game_service_pb.js";
import { h } from "../lib/dom.js";
import { answerForm } from "../lib/form.js";
import { idsOf, MapChoices } from "../lib/mapplay.js";

const $ = (id: string) => document.getElementById(id) as HTMLElement;

interface Play {
  d: YourDecision;
  words: string[];
  mc: MapChoices;
  button: (i: number, cls?: string) => HTMLButtonElement;
  done: (c: Command | null) => void;
  lit: Set<string>;
}
let play: Play | null = null;

/** The time of the last click on the board and of the marks it drew (the benchmark reads them). */
export const timing = { clickAt: 0, litAt: 0 };

/** Forget the pending decision's marks, picker and form (a refusal stays said until the next answer). */
export function clearPlay(): void {
  play = null;
  $("picker").replaceChildren();
  $("answer-form").replaceChildren();
  markBoard();
}

export function startPlay(d: YourDecision, words: string[], mc: MapChoices, button: Play["button"], done: Play["done"]): void {
  play = { d, words, mc, button, done, lit: new Set() };
  const n = mc.pieces.length + mc.places.length;
  $("picker").replaceChildren(h("div", { class: "hint" }, n
    ? `On the map: ${mc.pieces.length} piece(s) and ${mc.places.length} place(s) are named by a choice (outlined). Click a piece to light up where it can go, then a lit place.`
    : "No choice names a place on the map: pick below."));
  markBoard();
}

/** Marks the board's elements for the pending decision (called after every redraw of the board). */
export function markBoard(): void {
  const board = $("board");
  const pieces = new Set(play?.mc.pieces ?? []), places = new Set(play?.mc.places ?? []);
  const selected = new Set(play?.mc.selectedPieces ?? []);
  const lit = play?.lit ?? new Set<string>();
  for (const el of Array.from(board.querySelectorAll(".place, .piece"))) {
    const { places: pl, pieces: pc } = idsOf(el);
    el.classList.toggle("can", pl.some((p) => places.has(p)) || pc.some((p) => pieces.has(p)));
    el.classList.toggle("lit", pl.some((p) => lit.has(p)));
    el.classList.toggle("sel", pc.some((p) => selected.has(p)));
  }
  board.dataset.lit = [...lit].sort().join(" ");
  board.dataset.selected = [...selected].sort().join(" ");
}

/** A click on the board (one listener, set once). */
export function boardClick(ev: MouseEvent): void {
  if (!play) return;
  timing.clickAt = performance.now();
  const p = play;
  const r = p.mc.click(idsOf(ev.target as Element, $("board")));
  const picker = $("picker");
  if (r.kind === "choose") { p.done(p.d.legalCommands[r.command]); return; }
  if (r.kind === "select") {
    p.lit = new Set(r.places);
    // the selected pieces' choices that go to no place (a casualty, a unit revealed): buttons
    const placeless = r.commands.filter((i) => !p.mc.placesOf([i]).length);
    picker.replaceChildren(
      h("div", { class: "hint", id: "selected-pieces" }, `selected: ${r.pieces.map((u) => p.mc.nameOf(u)).join(", ")}: ${r.commands.length} choice(s); ${r.places.length} lit place(s) on the map. Click the piece again to unselect.`),
      ...placeless.map((i) => p.button(i, "pick")));
  } else if (r.kind === "pick") {
    picker.replaceChildren(h("div", { class: "hint" }, `${r.commands.length} choices go there: which one?`), ...r.commands.map((i) => p.button(i, "pick")));
  } else {
    p.lit = new Set();
    picker.replaceChildren(h("div", { class: "hint" }, r.why === "unselected" ? "unselected" : `Nothing to do there: ${r.why}.`));
  }
  markBoard();
  timing.litAt = performance.now();
  $("board").dataset.clickMs = (timing.litAt - timing.clickAt).toFixed(2);
}

/** The form of any answer: started from a listed choice (a select of them by name), every field
 * of the answer editable; what the rules allow here (the decision's space in words, its rule and
 * its data) shown as text. Open at once where the listed choices are only a sample of the answers
 * (`Decision.sampled`: a SOG team or action result, GMV casualties, NTND air missions...), folded
 * where the map plays the decision (``onMap``: a move's path); elsewhere every legal answer is
 * listed, and the form is one click away. */
export function showForm(d: YourDecision, words: string[], done: (c: Command) => void, onMap = false): void {
  const box = $("answer-form");
  box.replaceChildren();
  if (!d.legalCommands.length) return;
  const dec = d.decision;
  const rule = dec?.rule ? ` (${dec.rule})` : "";
  const open = () => {
    const from = document.createElement("select");
    from.id = "form-start";
    d.legalCommands.forEach((_, i) => { const o = h("option", null, words[i] ?? `choice ${i + 1}`) as HTMLOptionElement; o.value = String(i); from.append(o); });
    const holder = h("div", { id: "form-fields" });
    const err = h("div", { id: "form-error", class: "bad" });
    let form = answerForm(d.legalCommands[0]);
    const fill = () => { form = answerForm(d.legalCommands[Number(from.value)]); holder.replaceChildren(form?.el ?? h("div", null, "this answer has no form")); };
    from.onchange = fill;
    const send = h("button", { id: "send-answer" }, "Send this answer") as HTMLButtonElement;
    send.onclick = () => {
      try { if (form) done(form.read()); } catch (e) { err.textContent = (e as Error).message; }
    };
    let data = "";
    try { data = JSON.stringify(JSON.parse(dec?.dataJson || "null"), null, 1); } catch { data = dec?.dataJson ?? ""; }
    (box.querySelector("#form-body") ?? box).replaceChildren(
      h("div", { class: "hint", id: "form-space" }, dec?.sampled
        ? `The choices listed are only examples: the rules${rule} allow ${dec.space || "more answers"}. Write yours here; the referee refuses an answer the rules do not allow and says which rule.`
        : `Every legal answer is listed${rule}: ${dec?.space ?? ""}. You may still write one here.`),
      h("label", null, "start from ", from), holder, err, send,
      h("details", null, h("summary", null, "what the rules allow here (the decision's data)"), h("pre", { class: "data" }, data)));
    fill();
  };
  box.dataset.sampled = dec?.sampled ? "1" : "";
  if (dec?.sampled) {
    // open at once where nothing is played on the map (a team, a result); folded under the map's
    // play elsewhere (a move's path, an attack's units): one click away
    const det = h("details", { id: "form-details" },
      h("summary", null, `Write your own answer: the choices are only examples of what the rules${rule} allow`),
      h("div", { id: "form-body" })) as HTMLDetailsElement;
    box.append(det);
    if (!onMap) { det.open = true; open(); return; }
    // built when unfolded: a move decision lists hundreds of paths, and the map is how they are played
    det.ontoggle = () => { if (det.open && !box.querySelector("#form-start")) open(); };
    return;
  }
  const b = h("button", { id: "write-answer" }, "Write an answer in a form") as HTMLButtonElement;
  b.onclick = open;
  box.append(b);
}

/** The dice of a record as they fell (its public roll events), newest first. */
export function showDice(seq: number, who: string, rolls: { die: string; result: string; rule: string; faces: string[] }[]): void {
  if (!rolls.length) return;
  const box = $("dice");
  const row = h("div", { class: "roll", "data-seq": seq },
    `record ${seq}${who ? ", " + who : ""}: `,
    ...rolls.map((r) => h("span", { class: "throw", title: r.rule },
      ...(r.faces.length ? r.faces : [r.result]).map((f) => h("span", { class: "die" }, f)),
      r.faces.length > 1 ? ` = ${r.result}` : "", ` ${r.die} (${r.rule}) `)));
  box.prepend(row);
  while (box.children.length > 8) box.lastElementChild?.remove();
}

/** The end of the game in words: who won, why, by which rule, and the log to download. */
export function showEnd(outcome: Record<string, unknown> | null, cause: Record<string, unknown>, checked: string, exportLog: () => void): void {
  const o = outcome ?? {};
  const winner = o.winner;
  const kind = String(cause.kind ?? "rules");
  const why: Record<string, string> = {
    rules: "by the rules of the game", resign: "a seat resigned", agree: "the seats agreed",
    timeout: "a seat ran out of time", abandoned: "no seat acted in time (abandoned)",
  };
  const rest = Object.entries(o).filter(([k]) => k !== "winner" && k !== "reason")
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${plain(v)}`);
  const dl = h("button", { id: "end-export" }, "Download the verified log (.aar)") as HTMLButtonElement;
  dl.onclick = exportLog;
  $("end").replaceChildren(
    h("h2", null, "Game over"),
    h("div", { class: "winner" }, winner ? `${String(winner)} wins` : "No winner"),
    h("div", null, o.reason ? `Why: ${String(o.reason)}` : ""),
    h("div", null, `How it ended: ${why[kind] ?? kind}` + (cause.seat ? ` (${String(cause.seat)})` : "")),
    ...rest.map((l) => h("div", { class: "detail" }, l)),
    h("div", { class: "detail" }, checked), dl);
  $("end").hidden = false;
  $("end").dataset.winner = winner ? String(winner) : "";
}

/** A value of an outcome in words: an object as "key value, ...", a list as "a, b". */
export function plain(v: unknown): string {
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v)) return v.map(plain).join(", ") || "none";
  if (typeof v === "object") return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k.replace(/_/g, " ")} ${plain(x)}`).join(", ") || "none";
  return String(v);
}
