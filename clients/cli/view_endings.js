"use strict";
// The replay page's checks of the endings every game has (SPEC.md 8.1-8.3; 10 B.8, B.9.7-8), the
// same as engine/log/endings.py: each record's time (a game with a clock), the ending commands
// (resign, offer, accept) and the end record's cause and outcome. view_page.js calls it.
window.aarEndings = function (mark, seatOrder, genesis) {
  const g = genesis.body, v2 = genesis.v >= 2;
  const c = v2 && g.clock ? { d: g.clock.decision, t: g.clock.total, a: g.clock.abandon, last: g.at,
                              acted: [0, g.at], since: null, used: {} } : null;
  let offer = null, last = null;
  const canon = (o) => JSON.stringify(o, Object.keys(o).sort());
  const other = (s) => { const r = seatOrder.filter((x) => x !== s); return r.length === 1 ? r[0] : null; };
  const timeout = (s) => {  // (deadline, control) of s's pending decision (SPEC.md 8.2)
    if (!c || !c.since || !(c.d || c.t)) return null;
    const at = c.since[1], d = [];
    if (c.d) d.push([at + c.d, "decision"]);
    if (c.t) d.push([at + c.t - (c.used[s] || 0), "total"]);
    d.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1));
    return d[0];
  };
  const outcome = (k) => {  // SPEC.md 8.3's table
    if (k.kind === "resign") return { winner: other(k.seat), reason: "seat " + k.seat + " resigned" };
    if (k.kind === "agree") return { winner: k.winner, reason: k.winner === null ? "agreed draw" : "agreed result: seat " + k.winner + " wins" };
    if (k.kind === "timeout") return { winner: other(k.seat), reason: "seat " + k.seat + " ran out of time (" + k.control + " limit)" };
    return { winner: null, reason: "abandoned: no seat acted within the limit (no result)" };
  };
  const atOk = (seq, at) => {
    if (!c) return at;
    mark(seq, Number.isInteger(at) && at >= 0 && at <= 2 ** 53 && at >= c.last,
         "the record's time is the server's, never before the previous record's (SPEC.md 8.2)");
    return at;
  };
  const eventOf = (env) => {
    const e = env.ending || {};
    if (e.resign) return { t: "resign", seat: env.seat };
    if (e.offer) return { t: "offer", seat: env.seat, winner: e.offer.winner || null };
    if (e.accept) return { t: "accept", seat: env.seat, offer: e.accept.offer || 0, winner: e.accept.winner || null };
    return null;
  };
  return {
    genesisKeys: v2 && ("clock" in g || "at" in g) ? ["clock", "at"] : [],
    bodyKeys: c ? ["at"] : [],
    isResign: (b) => v2 && Array.isArray(b.events) && b.events.length === 1 && !!b.events[0] && b.events[0].t === "resign",
    // a seat record, after the page's own checks of it; env: its decoded public envelope or null
    seat(seq, kind, b, env, starts, started) {
      if (last) mark(seq, false, "a " + last.t + " ends the game: the end record follows it (SPEC.md 8.1)");
      const at = atOk(seq, b.at), seat = b.seat;
      const ending = !!(env && env.ending);
      if (c) {
        mark(seq, at <= c.acted[1] + c.a, "the record is not past the abandonment deadline (SPEC.md 8.2)");
        const t = kind === "command" && !ending ? timeout(seat) : null;
        if (t) mark(seq, at <= t[0], "seat " + seat + "'s command is not past its deadline (" + t[1] + " limit, SPEC.md 8.2)");
      }
      const before = offer; offer = null;
      if (ending) {
        const ev = eventOf(env);
        mark(seq, !!ev && Array.isArray(b.events) && b.events.length === 1 && canon(b.events[0]) === canon(ev),
             "the event of an ending command is its signed envelope's (SPEC.md 8.1)");
        if (ev && ev.t !== "resign") mark(seq, started, "an " + ev.t + " once the game has started (SPEC.md 8.1)");
        if (ev && ev.t === "offer") {
          mark(seq, ev.winner === null || seatOrder.includes(ev.winner), "an offer names a seat or a draw");
          offer = [seq, seat, ev.winner];
        } else if (ev) {
          if (ev.t === "accept") mark(seq, !!before && ev.offer === before[0] && before[1] !== seat && ev.winner === before[2],
                                      "the acceptance names the offer in the record before it, by the other seat, for the same result (SPEC.md 8.1)");
          last = ev;
        }
      }
      if (c) {
        c.last = at; c.acted = [seq, at];
        if ((kind === "command" && !ending) || starts) {
          if (!starts && c.since) c.used[seat] = (c.used[seat] || 0) + at - c.since[1];
          c.since = [seq, at];
        }
      }
    },
    // the end record: its keys, the record before it, its cause (SPEC.md 10 B.8); returns the cause
    end(seq, b, beforeKind, exactKeys) {
      const keys = ["secret", "outcome"].concat(c ? ["at"] : [], v2 && "cause" in b ? ["cause"] : []);
      mark(seq, exactKeys(b, keys), "the end body has exactly the keys " + keys.join(", ") + " (SPEC.md 1.3)");
      const at = atOk(seq, b.at), k = b.cause, prevEnd = last;
      last = null;
      if (k === undefined) {
        mark(seq, !prevEnd && beforeKind === "command", "the end record follows a command record (SPEC.md 8)" + (beforeKind !== "command" ? ", not a " + beforeKind + " record" : ""));
        return { kind: "rules" };
      }
      const shapes = { resign: ["kind", "seat"], agree: ["kind", "offer", "winner"], timeout: ["kind", "seat", "control", "since", "deadline"], abandon: ["kind", "since", "deadline"] };
      const ok = !!k && shapes[k.kind] && exactKeys(k, shapes[k.kind]);
      mark(seq, !!ok, "the cause has one of the shapes of SPEC.md 8.3");
      if (!ok) return k;
      if (k.kind === "resign") mark(seq, !!prevEnd && prevEnd.t === "resign" && prevEnd.seat === k.seat, "the resignation the cause names is the record before, signed by the resigning seat " + k.seat + " (SPEC.md 8.1)");
      if (k.kind === "agree") mark(seq, !!prevEnd && prevEnd.t === "accept" && prevEnd.offer === k.offer && prevEnd.winner === k.winner, "the agreed result is the acceptance in the record before, of offer " + k.offer + " (SPEC.md 8.1)");
      if (k.kind === "timeout" || k.kind === "abandon") {
        mark(seq, !prevEnd && !!c, "a " + k.kind + " in a game with a time control (SPEC.md 8.2)");
        if (c && k.kind === "timeout") {
          const t = timeout(k.seat);
          mark(seq, !!t && k.since === c.since[0] && k.deadline === t[0] && k.control === t[1] && t[0] <= c.acted[1] + c.a,
               "the time-out's since, control and deadline are the ones the declared control and the recorded times give (SPEC.md 8.2)");
        }
        if (c && k.kind === "abandon") mark(seq, k.since === c.acted[0] && k.deadline === c.acted[1] + c.a, "the abandonment's since and deadline are the last seat record's and the declared limit's (SPEC.md 8.2)");
        mark(seq, at > k.deadline, "the " + k.kind + " is recorded after its deadline " + k.deadline + " (SPEC.md 8.2)");
      }
      const o = b.outcome || {};
      mark(seq, canon(o) === canon(outcome(k)), "the outcome of a " + k.kind + " is the engine's (SPEC.md 8.3)");
      return k;
    },
  };
};
