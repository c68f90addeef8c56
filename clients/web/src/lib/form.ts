// A form for any answer of a decision: the decision's answer spaces that are not lists
// (SOG's team organisation and action results, GMV's purchases, casualties and fire, NTND's losses,
// retreats and air missions) are described by the ruleset, and the server lists only a sample of
// them. The form is built from the answer's own message (the generated descriptors of
// proto/afteraction/v1: every field, every enum value by its name, every repeated item), started
// from one of the listed answers, so every legal answer can be written; the server's referee
// decides, and a refusal comes back with the rule it breaks, in words (the page shows it and asks
// again: nothing was signed into the log). No rule is known here.
import { create, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { CommandSchema, type Command } from "../gen/afteraction/v1/command_pb.js";
import { h } from "./dom.js";

type Getter = () => unknown;
const words = (s: string) => s.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();

/** The action of a command: the game's message, the action's case, its message and descriptor. */
export function actionOf(c: Command): { game: string; inner: DescMessage; action: string; desc: DescMessage; value: Record<string, unknown> } | null {
  const g = c.game as { case?: string; value?: Record<string, unknown> };
  if (!g.case || !g.value) return null;
  const inner = CommandSchema.fields.find((f) => f.localName === g.case)?.message;
  const act = g.value.action as { case?: string; value?: Record<string, unknown> } | undefined;
  if (!inner || !act?.case || !act.value) return null;
  const desc = inner.fields.find((f) => f.localName === act.case)?.message;
  return desc ? { game: g.case, inner, action: act.case, desc, value: act.value } : null;
}

/** The command ``action`` of ``game`` whose message is ``value``. */
export function commandOf(game: string, inner: DescMessage, action: string, desc: DescMessage, value: Record<string, unknown>): Command {
  const msg = create(desc, value as never);
  return create(CommandSchema, { game: { case: game, value: create(inner, { action: { case: action, value: msg } } as never) } as never });
}

const INTS = new Set<ScalarType>([ScalarType.INT32, ScalarType.UINT32, ScalarType.SINT32, ScalarType.FIXED32, ScalarType.SFIXED32]);
const BIGS = new Set<ScalarType>([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function scalarText(t: ScalarType, v: unknown): string {
  if (t === ScalarType.BYTES) return Array.from((v as Uint8Array) ?? []).map((b) => b.toString(16).padStart(2, "0")).join("");
  return v === undefined || v === null ? "" : String(v);
}

function parseScalar(t: ScalarType, text: string, what: string): unknown {
  const s = text.trim();
  if (t === ScalarType.BOOL) return s === "true";
  if (t === ScalarType.STRING) return text;
  if (t === ScalarType.BYTES) {
    if (!/^([0-9a-f]{2})*$/i.test(s)) throw new Error(`${what}: hex digits, two per byte`);
    return new Uint8Array((s.match(/../g) ?? []).map((x) => parseInt(x, 16)));
  }
  if (!/^-?\d+$/.test(s || "0")) throw new Error(`${what}: a whole number, not "${text}"`);
  if (BIGS.has(t)) return BigInt(s || "0");
  if (INTS.has(t)) return Number(s || "0");
  return Number(s || "0");
}

function scalarEditor(f: DescField, t: ScalarType, v: unknown, label: string): [HTMLElement, Getter] {
  if (t === ScalarType.BOOL) {
    const i = document.createElement("input");
    i.type = "checkbox";
    i.checked = v === true;
    i.dataset.field = label;
    return [h("label", { class: "field" }, i, " " + label), () => i.checked];
  }
  const i = document.createElement("input");
  i.type = INTS.has(t) || BIGS.has(t) ? "number" : "text";
  i.value = scalarText(t, v);
  i.dataset.field = label;
  return [h("label", { class: "field" }, label + " ", i), () => parseScalar(t, i.value, label)];
}

function enumEditor(f: DescField, values: { name: string; number: number }[], v: unknown, label: string): [HTMLElement, Getter] {
  const s = document.createElement("select");
  s.dataset.field = label;
  const prefix = commonPrefix(values.map((x) => x.name));
  for (const e of values) {
    const o = h("option", null, words(e.name.slice(prefix.length)) || e.name) as HTMLOptionElement;
    o.value = String(e.number);
    s.append(o);
  }
  s.value = String(v ?? 0);
  return [h("label", { class: "field" }, label + " ", s), () => Number(s.value)];
}

function commonPrefix(names: string[]): string {
  if (names.length < 2) return "";
  let p = names[0];
  for (const n of names) while (!n.startsWith(p)) p = p.slice(0, -1);
  return p.slice(0, p.lastIndexOf("_") + 1);
}

/** Editors for a list: one row per item, "add one" (a copy of the last, or a new one), "remove". */
function listEditor(items: unknown[], make: (v: unknown, label: string) => [HTMLElement, Getter], fresh: () => unknown, label: string): [HTMLElement, Getter] {
  const box = h("div", { class: "list", "data-list": label });
  const rows: { el: HTMLElement; get: Getter }[] = [];
  const add = (v: unknown) => {
    const [el, get] = make(v, `${label} ${rows.length + 1}`);
    const rm = h("button", { class: "remove" }, "remove") as HTMLButtonElement;
    rm.type = "button";
    const row = { el: h("div", { class: "item" }, el, rm), get };
    rm.onclick = () => { rows.splice(rows.indexOf(row), 1); row.el.remove(); };
    rows.push(row);
    box.insertBefore(row.el, more);
  };
  const more = h("button", { class: "add" }, `add one to ${label}`) as HTMLButtonElement;
  more.type = "button";
  more.onclick = () => add(rows.length ? rows[rows.length - 1].get() : fresh());
  box.append(more);
  for (const v of items) add(v);
  return [h("fieldset", null, h("legend", null, label), box), () => rows.map((r) => r.get())];
}

function fieldEditor(f: DescField, v: unknown): [HTMLElement, Getter] {
  const label = words(f.localName);
  switch (f.fieldKind) {
    case "scalar": return scalarEditor(f, f.scalar, v, label);
    case "enum": return enumEditor(f, f.enum.values, v, label);
    case "message": return messageEditor(f.message, (v ?? create(f.message)) as Record<string, unknown>, label);
    case "list": {
      const items = (v as unknown[]) ?? [];
      if (f.listKind === "message") {
        const m = f.message;
        return listEditor(items, (x, l) => messageEditor(m, x as Record<string, unknown>, l), () => create(m), label);
      }
      if (f.listKind === "enum") {
        const vals = f.enum.values;
        return listEditor(items, (x, l) => enumEditor(f, vals, x, l), () => vals[0]?.number ?? 0, label);
      }
      const t = f.scalar;
      return listEditor(items, (x, l) => scalarEditor(f, t, x, l), () => (BIGS.has(t) ? 0n : t === ScalarType.STRING ? "" : 0), label);
    }
    default:
      return [h("div", { class: "note" }, `${label}: not editable here`), () => v];
  }
}

/** An editor of a message of ``desc`` started from ``value``: the element and a getter of a new message. */
export function messageEditor(desc: DescMessage, value: Record<string, unknown>, label = ""): [HTMLElement, Getter] {
  const box = h("fieldset", { class: "message" });
  if (label) box.append(h("legend", null, label));
  const getters: [string, Getter][] = [];
  for (const f of desc.fields) {
    if (f.oneof) {   // a oneof: the member set in the start value only
      const o = value[f.oneof.localName] as { case?: string; value?: unknown } | undefined;
      if (o?.case !== f.localName) continue;
      const [el, get] = fieldEditor(f, o.value);
      box.append(el);
      getters.push([f.oneof.localName, () => ({ case: f.localName, value: get() })]);
      continue;
    }
    const [el, get] = fieldEditor(f, value[f.localName]);
    box.append(el);
    getters.push([f.localName, get]);
  }
  return [box, () => {
    const out: Record<string, unknown> = {};
    for (const [k, g] of getters) out[k] = g();
    return create(desc, out as never);
  }];
}

/** The form of an answer started from the listed command ``start``: its element and a function
 * giving the command written (throws, naming the field, on a value that is not of its type). */
export function answerForm(start: Command): { el: HTMLElement; read: () => Command } | null {
  const a = actionOf(start);
  if (!a) return null;
  const [el, get] = messageEditor(a.desc, a.value, words(a.action));
  return { el, read: () => commandOf(a.game, a.inner, a.action, a.desc, get() as Record<string, unknown>) };
}
