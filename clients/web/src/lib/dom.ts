// How both pages (the web client, src/app/main.ts, and `aar view`'s replay page, through
// view_lib.ts) put what a log or a server says on the page: as text, never as markup built from
// strings. `h` and `svg` make elements whose attributes come from a fixed list (never a handler,
// a style, a link or a source) and whose children are nodes or text; `picture` draws a board
// picture (the SVG the engine's render modules write, or the duel's view as text) by parsing it
// in an inert document and copying it element by element through a fixed list of SVG elements and
// presentation attributes, so a script, a handler, a link, a style or foreign content in it is
// dropped, never run.

const SVG_NS = "http://www.w3.org/2000/svg";

/** What an element is given as its children: text (numbers and bigints as their digits), nodes,
 * lists of them; null, undefined and false are nothing. */
export type Child = Node | string | number | bigint | boolean | null | undefined | Child[];

// the attributes the pages' own elements use: none runs code, loads anything or styles inline
const SAFE_ATTR = /^(id|class|title|open|colspan|role|width|height|viewBox|cx|cy|r|data-[a-z][a-z0-9-]*|aria-[a-z]+)$/;

function put(el: Element, attrs: Record<string, unknown> | null | undefined, children: Child[]): void {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (!SAFE_ATTR.test(k)) throw new Error(`the page sets no ${k} attribute`);
    el.setAttribute(k, v === true ? "" : String(v));
  }
  const add = (c: Child): void => {
    if (c === null || c === undefined || c === false || c === true) return;
    if (Array.isArray(c)) c.forEach(add);
    else if (typeof c === "object") el.append(c);
    else el.append(document.createTextNode(String(c)));
  };
  children.forEach(add);
}

/** An HTML element: ``h("span", {class: "ok"}, "text", node, ...)``; text children are text. */
export function h(tag: string, attrs?: Record<string, unknown> | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  put(el, attrs, children);
  return el;
}

/** An SVG element, as ``h``. */
export function svg(tag: string, attrs?: Record<string, unknown> | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  put(el, attrs, children);
  return el;
}

/** The elements and attributes of a board picture (engine/games/<game>/render.py draws with
 * these): shapes, text, titles and presentation attributes. Nothing else is drawn. */
const PICTURE_ELEMENTS = new Set(["svg", "g", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path",
  "text", "tspan", "title", "desc"]);
const PICTURE_ATTRS = new Set(["x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy", "width",
  "height", "points", "d", "viewBox", "preserveAspectRatio", "transform", "class", "fill", "fill-opacity",
  "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "opacity", "font-family", "font-size",
  "font-weight", "font-style", "text-anchor", "dominant-baseline"]);

/** A board picture copied onto the page: ``node`` to show, ``dropped`` the number of elements and
 * attributes of the markup that are not part of a picture (not drawn), ``error`` if the markup
 * does not parse (then ``node`` is null). */
export interface Picture { node: Node | null; dropped: number; error: string | null }

/** Draws ``markup``: an SVG document (the render modules') or ``<pre class="view">`` text (a game
 * without a picture). It is parsed as XML in a document of its own, which runs no script and
 * loads nothing, and copied through PICTURE_ELEMENTS and PICTURE_ATTRS: no markup of it reaches
 * the page's document as markup. */
export function picture(markup: string): Picture {
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.getElementsByTagName("parsererror").length || root.localName === "parsererror")
    return { node: null, dropped: 0, error: "the picture is not well-formed XML" };
  if (root.namespaceURI === null && root.localName === "pre")   // the duel: its view as text
    return { node: h("pre", { class: "view" }, root.textContent ?? ""), dropped: root.children.length, error: null };
  let dropped = 0;
  const copy = (from: Element): Element | null => {
    if (from.namespaceURI !== SVG_NS || !PICTURE_ELEMENTS.has(from.localName)) { dropped++; return null; }
    const to = document.createElementNS(SVG_NS, from.localName);
    for (const a of Array.from(from.attributes)) {
      if (a.namespaceURI === null && PICTURE_ATTRS.has(a.localName) && !/url\s*\(|[<>]|script:/i.test(a.value)) to.setAttribute(a.localName, a.value);
      else if (!(a.name === "xmlns")) dropped++;
    }
    for (const c of Array.from(from.childNodes)) {
      if (c.nodeType === Node.ELEMENT_NODE) { const e = copy(c as Element); if (e) to.append(e); }
      else if (c.nodeType === Node.TEXT_NODE || c.nodeType === Node.CDATA_SECTION_NODE) to.append(document.createTextNode(c.nodeValue ?? ""));
    }
    return to;
  };
  const node = root.localName === "svg" ? copy(root) : null;
  if (!node) return { node: null, dropped: dropped || 1, error: `the picture is not an SVG picture (its root is <${root.localName}>)` };
  return { node, dropped, error: null };
}
