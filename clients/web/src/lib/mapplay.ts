// Map-first play: a pending decision's legal commands indexed by the pieces and places
// their names refer to (CommandName.refs, given by the ruleset's presentation layer,
// engine/names.py), so that a click on a piece lights up the places its commands go to and a click
// on a place picks the command that goes there. No rule is known here: what is legal is what the
// server listed, what a command touches is what its name's references say.
//
// The board pictures (engine/games/<game>/render.py) mark what they draw with classes: a place
// `class="place p:<id>"` (an NTND hex or zone, a GMV zone card, a SOG square), a piece or a stack
// `class="piece u:<id> u:<id2>..."` (only the ids the picture already shows).

/** A legal command's name as the page uses it (CommandName of game_service.proto). */
export interface Named {
  text: string;
  group: string;
  refs: { kind: string; id: string; name: string; position: string }[];
}

/** What a click on the map did. */
export type Click =
  | { kind: "select"; commands: number[]; pieces: string[]; places: string[] }   // a piece: its destinations lit
  | { kind: "choose"; command: number }                                            // exactly one command: play it
  | { kind: "pick"; commands: number[] }                                           // several: the person picks one
  | { kind: "none"; why: string };                                                 // nothing legal there

/** The ids a drawn element stands for: its places (`p:`) and pieces (`u:`), read from its class
 * and its ancestors' (a chip's rectangle sits in the piece's group). */
export function idsOf(el: Element | null, stop?: Element): { places: string[]; pieces: string[] } {
  const places: string[] = [], pieces: string[] = [];
  for (let e = el; e && e !== stop; e = e.parentElement) {
    for (const c of Array.from(e.classList)) {
      if (c.startsWith("p:")) places.push(c.slice(2));
      else if (c.startsWith("u:")) pieces.push(c.slice(2));
    }
    if (places.length || pieces.length) break;   // the innermost marked element
  }
  return { places, pieces };
}

export class MapChoices {
  private byPiece = new Map<string, number[]>();
  private byPlace = new Map<string, number[]>();
  /** The commands of the selected piece(s), or null. */
  selected: number[] | null = null;
  selectedPieces: string[] = [];

  constructor(readonly names: Named[]) {
    names.forEach((n, i) => {
      for (const r of n.refs) {
        const m = r.kind === "piece" ? this.byPiece : r.kind === "place" ? this.byPlace : null;
        if (!m || !r.id) continue;
        const l = m.get(r.id) ?? [];
        if (l[l.length - 1] !== i) l.push(i);
        m.set(r.id, l);
      }
    });
  }

  /** Every place and piece some legal command refers to (what the map marks as playable). */
  get pieces(): string[] { return [...this.byPiece.keys()]; }
  get places(): string[] { return [...this.byPlace.keys()]; }

  /** The places the commands ``idx`` refer to (the destinations lit for a selected piece). */
  placesOf(idx: number[]): string[] {
    const out = new Set<string>();
    for (const i of idx) for (const r of this.names[i].refs) if (r.kind === "place" && r.id) out.add(r.id);
    return [...out];
  }

  clear(): void { this.selected = null; this.selectedPieces = []; }

  /** A click on what the map drew as ``places`` and ``pieces``. */
  click(at: { places: string[]; pieces: string[] }): Click {
    // a piece (or stack) some command names: select it; a second click on it unselects
    const pieceCmds = uniq(at.pieces.flatMap((p) => this.byPiece.get(p) ?? []));
    if (pieceCmds.length) {
      const same = this.selected && at.pieces.every((p) => this.selectedPieces.includes(p));
      if (same) { this.clear(); return { kind: "none", why: "unselected" }; }
      const places = this.placesOf(pieceCmds);
      this.selected = pieceCmds;
      this.selectedPieces = at.pieces.filter((p) => this.byPiece.has(p));
      return { kind: "select", commands: pieceCmds, pieces: this.selectedPieces, places };
    }
    // a place: the commands going there (of the selected piece, if one is)
    const among = this.selected;
    const here = uniq(at.places.flatMap((p) => this.byPlace.get(p) ?? [])).filter((i) => !among || among.includes(i));
    if (!here.length) {
      if (among) return { kind: "none", why: "the selected piece cannot go there" };
      // no command names this place itself: the commands of the pieces in it (click a stack's hex)
      const inIt = uniq([...this.byPiece.entries()].filter(([p]) => at.places.includes(this.positionOf(p))).flatMap(([, l]) => l));
      if (inIt.length) {
        this.selected = inIt;
        this.selectedPieces = [...this.byPiece.keys()].filter((p) => at.places.includes(this.positionOf(p)));
        return { kind: "select", commands: inIt, pieces: this.selectedPieces, places: this.placesOf(inIt) };
      }
      return { kind: "none", why: "no legal choice names this place" };
    }
    if (here.length === 1) { this.clear(); return { kind: "choose", command: here[0] }; }
    return { kind: "pick", commands: here };
  }

  /** A piece's printed name and id ("infantry u17"), as the commands' references give it. */
  nameOf(piece: string): string {
    for (const i of this.byPiece.get(piece) ?? [])
      for (const r of this.names[i].refs) if (r.kind === "piece" && r.id === piece && r.name)
        return r.name.includes(piece) ? r.name : `${r.name} (${piece})`;
    return piece;
  }

  /** Where a piece is, as the commands' references say ("" if none says). */
  positionOf(piece: string): string {
    for (const i of this.byPiece.get(piece) ?? [])
      for (const r of this.names[i].refs) if (r.kind === "piece" && r.id === piece && r.position) return r.position;
    return "";
  }
}

function uniq(xs: number[]): number[] { return [...new Set(xs)].sort((a, b) => a - b); }
