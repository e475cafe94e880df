// Drawing a scene (docs/web.md "Scene format") as SVG: hexes, walls, marks, items, figures, the
// highlights and the ghost of a decision, with zoom (wheel, buttons) and pan (drag) through the
// viewBox. Geometry follows gladiator.core.hexgrid: axial (q, r), flat-top hexes,
// x = 1.5·size·q, y = √3·size·(r + q/2), facing 0 = north, clockwise.
//
// DOM: every hex polygon has data-hex="q,r" (and class "legal" while it may be picked), every
// figure group data-seat and data-figure, items data-item, the ghost group id "ghost".
// Every text comes from the server and goes in through SVG text nodes, never markup.

const SVG = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
export const SIZE = 30;

const SEAT_COLOURS = {
  red: "#c0392b",
  blue: "#2864b4",
  green: "#2e8b57",
  yellow: "#c9a400",
  gold: "#b8860b",
  purple: "#7d3c98",
  orange: "#d35400",
  // The Colosseum's big team matches (ruling G17): twelve seats, each its own colour.
  white: "#f2efe6",
  black: "#222222",
  silver: "#9aa3ad",
  brown: "#7b4a24",
  grey: "#6b6b6b",
  pink: "#e07aa8",
};
const SPARE_COLOURS = ["#8e6c3a", "#16808a", "#b03a73", "#55606e"];

// The seat's colour; seats with no colour of their own get one by table position.
export function seatColour(seat, index = 0) {
  return SEAT_COLOURS[seat] || SPARE_COLOURS[index % SPARE_COLOURS.length];
}

export function hexToPixel(q, r) {
  return [SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)];
}

// Screen angle (degrees, y down) of a facing: 0 = north = -90°, clockwise in steps of 60°.
export function facingAngle(facing) {
  return -90 + 60 * facing;
}

function corners(x, y, size = SIZE) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * 60 * i;
    pts.push([x + size * Math.cos(a), y + size * Math.sin(a)]);
  }
  return pts;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, cls) {
  const t = el("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "central" }, parent);
  t.appendChild(document.createTextNode(content));
  return t;
}

function points(pts) {
  return pts.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
}

const LYING = new Set(["prone", "floored", "helpless"]);
const DEAD = new Set(["dead", "killed", "slain"]);
// Short badges for the states front ends know; any other state shows its first letters.
const BADGES = {
  kneeling: "KN",
  prone: "PR",
  floored: "FL",
  helpless: "HL",
  stunned: "ST",
  stumbling: "SB",
  "must stumble": "S!",
  ensnared: "NT",
  entangled: "NT",
  netted: "NT",
  "off-balance": "OB",
  unconscious: "UC",
  unarmed: "UA",
  "no shield": "NS",
  "no net": "NN",
  net: "NE",
  spared: "SP",
  "face up": "FU",
  "face down": "FD",
};

const STRUCK = " — struck in the last phase";

// Facing 0..5 as compass points (flat-top hexes: a side faces N, NE, SE, S, SW or NW).
export const COMPASS = ["N", "NE", "SE", "S", "SW", "NW"];

export function badgeOf(state) {
  return BADGES[state] || state.slice(0, 2).toUpperCase();
}

// A board on an <svg> element. `handlers.onHexClick(q, r)` and `handlers.onHexHover(q, r|null)`.
export class Board {
  constructor(svg, handlers = {}) {
    this.svg = svg;
    this.handlers = handlers;
    this.seatIndex = new Map();
    this.view = null; // [x, y, w, h]
    this.fitted = false;
    this.legal = new Set();
    this.layers = {};
    for (const name of ["hexes", "walls", "marks", "items", "highlight", "arrows", "figures", "ghost"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    this.layers.ghost.setAttribute("id", "ghost");
    this.layers.arrows.setAttribute("id", "arrows");
    this.layers.arrows.setAttribute("pointer-events", "none");
    this.layers.ghost.setAttribute("pointer-events", "none");
    this._panning();
    // A page turned or resized to a phone's width brings the offered hexes up to size then.
    this.touch = window.matchMedia("(max-width: 600px), (pointer: coarse)");
    this.touch.addEventListener("change", () => this._focusLegal());
  }

  // The meanings of the states a figure's badges show ({state: meaning}: the ruleset's glossary).
  setStates(meanings) {
    this.meanings = meanings || {};
  }

  // "KN: Kneeling: lower, …" (the badge, then the glossary's meaning, else the state's name).
  stateMeaning(state) {
    const meaning = (this.meanings || {})[state];
    return `${badgeOf(state)}: ${meaning || state}`;
  }

  // Draw a scene; the view is fitted to the board the first time (and on fit()).
  render(scene, seats = []) {
    seats.forEach((s, i) => this.seatIndex.set(s, i));
    this.scene = scene;
    this._hexes(scene.hexes || []);
    this._walls(scene.walls || []);
    this._marks(scene.marks || []);
    this._items(scene.items || []);
    this._figures(scene.figures || []);
    this.setLegal([...this.legal].map((k) => k.split(",").map(Number)));
    if (!this.fitted && (scene.hexes || []).length) {
      this.fit();
      this.fitted = true;
      this._focusLegal();
    }
  }

  colour(seat) {
    if (!this.seatIndex.has(seat)) this.seatIndex.set(seat, this.seatIndex.size);
    return seatColour(seat, this.seatIndex.get(seat));
  }

  _hexes(hexes) {
    const layer = this.layers.hexes;
    const key = hexes.map((h) => h.join(",")).join(";");
    if (key === this._hexKey) return; // the board rarely changes: keep the DOM
    this._hexKey = key;
    layer.replaceChildren();
    this.hexNodes = new Map();
    for (const [q, r] of hexes) {
      const [x, y] = hexToPixel(q, r);
      const poly = el("polygon", { points: points(corners(x, y)), class: "hex", "data-hex": `${q},${r}` }, layer);
      const title = el("title", {}, poly);
      title.appendChild(document.createTextNode(`${q},${r}`));
      poly.addEventListener("click", () => {
        if (this.dragged) return;
        if (this.handlers.onHexClick) this.handlers.onHexClick(q, r);
      });
      poly.addEventListener("mouseenter", () => this.handlers.onHexHover && this.handlers.onHexHover(q, r));
      poly.addEventListener("mouseleave", () => this.handlers.onHexHover && this.handlers.onHexHover(null));
      this.hexNodes.set(`${q},${r}`, poly);
    }
  }

  _walls(walls) {
    const layer = this.layers.walls;
    layer.replaceChildren();
    for (const w of walls) {
      const [x, y] = hexToPixel(w[0], w[1]);
      if (w.length >= 3) {
        // A wall on hex-side d runs between the corners at 240°+60d and 300°+60d (y down).
        const pts = corners(x, y);
        const a = pts[(4 + w[2]) % 6];
        const b = pts[(5 + w[2]) % 6];
        el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "wall" }, layer);
      } else {
        el("polygon", { points: points(corners(x, y)), class: "wall-hex" }, layer);
      }
    }
  }

  _marks(marks) {
    const layer = this.layers.marks;
    layer.replaceChildren();
    marks.forEach((m, i) => {
      const [x, y] = hexToPixel(m.hex[0], m.hex[1]);
      const g = el("g", { class: `mark mark-${m.kind}`, "data-mark": m.kind }, layer);
      // A few drops around the centre, placed by index so that a redraw does not jump.
      const drops = [[-8, -6, 5], [6, -3, 4], [-2, 7, 6], [9, 8, 3]];
      for (const [dx, dy, rr] of drops) {
        el("circle", { cx: x + dx + (i % 3), cy: y + dy, r: rr }, g);
      }
    });
  }

  _items(items) {
    const layer = this.layers.items;
    layer.replaceChildren();
    const perHex = new Map();
    for (const it of items) {
      const key = it.hex.join(",");
      const n = perHex.get(key) || 0;
      perHex.set(key, n + 1);
      const [cx, cy] = hexToPixel(it.hex[0], it.hex[1]);
      const x = cx + (n % 2 ? 9 : -9);
      const y = cy + 14 - 8 * Math.floor(n / 2);
      const g = el("g", { class: `item item-${it.kind}`, "data-item": it.kind }, layer);
      const colour = it.owner ? this.colour(it.owner) : "#555";
      if (it.kind === "shield") {
        el("circle", { cx: x, cy: y, r: 7, fill: "#e8d8a8", stroke: colour, "stroke-width": 2.5 }, g);
      } else if (it.kind === "net") {
        const sq = 8;
        el("rect", { x: x - sq, y: y - sq, width: 2 * sq, height: 2 * sq, fill: "url(#net-pattern)", stroke: colour }, g);
      } else {
        // weapon or trident: a blade with a cross-guard
        el("line", { x1: x - 9, y1: y + 5, x2: x + 9, y2: y - 5, stroke: colour, "stroke-width": 2.5 }, g);
        el("line", { x1: x - 5, y1: y - 3, x2: x - 1, y2: y + 5, stroke: colour, "stroke-width": 2 }, g);
      }
      const title = el("title", {}, g);
      title.appendChild(document.createTextNode(`${it.label || it.kind}${it.owner ? ` (${it.owner})` : ""}`));
    }
    this._ensurePattern();
  }

  _ensurePattern() {
    if (this.svg.querySelector("#net-pattern")) return;
    const defs = el("defs", {});
    this.svg.insertBefore(defs, this.svg.firstChild);
    const p = el("pattern", { id: "net-pattern", width: 4, height: 4, patternUnits: "userSpaceOnUse" }, defs);
    el("path", { d: "M0,0 L4,4 M4,0 L0,4", stroke: "#6b5a3a", "stroke-width": 0.8 }, p);
  }

  _figures(figures) {
    const layer = this.layers.figures;
    layer.replaceChildren();
    // The dead first, so that the living stand over them.
    const sorted = [...figures].sort((a, b) => Number(a.alive) - Number(b.alive));
    for (const f of sorted) layer.appendChild(this.figure(f));
  }

  // One figure: a disc in the seat's colour, a wedge for the facing, the class initial and a
  // badge per state; lying figures are drawn flattened, the dead greyed with a cross.
  figure(f, ghost = false) {
    const [x, y] = hexToPixel(f.hex[0], f.hex[1]);
    const states = f.states || [];
    const lying = states.some((s) => LYING.has(s));
    const dead = !f.alive || states.some((s) => DEAD.has(s));
    const kneeling = states.includes("kneeling");
    const g = el("g", {
      class: `figure${dead ? " dead" : ""}${lying ? " lying" : ""}${ghost ? " ghost" : ""}`,
      transform: `translate(${x.toFixed(2)},${y.toFixed(2)})`,
    });
    if (!ghost) {
      g.setAttribute("data-seat", f.seat);
      g.setAttribute("data-figure", f.id);
      g.setAttribute("data-states", states.join(" "));
      g.setAttribute("data-facing", String(f.facing));
    }
    const colour = this.colour(f.seat);
    if (f.hexes && f.hexes.length > 1) {
      // A two-hex beast counter (§28.2.1): a band from the head's hex to its body's, under the disc.
      const [tx, ty] = hexToPixel(f.hexes[1][0], f.hexes[1][1]);
      el("line", {
        x1: 0, y1: 0, x2: (tx - x).toFixed(2), y2: (ty - y).toFixed(2),
        class: "beast-body", stroke: colour, "stroke-width": 24, "stroke-linecap": "round", opacity: 0.8,
      }, g);
    }
    const body = el("g", { transform: `rotate(${facingAngle(f.facing) + 90})` }, g);
    const radius = kneeling ? 13 : 16;
    // The wedge points along the facing: drawn pointing north, then rotated.
    el("polygon", { points: points([[-9, -radius + 2], [9, -radius + 2], [0, -radius - 11]]), class: "facing", fill: colour }, body);
    if (lying) {
      el("ellipse", { cx: 0, cy: 0, rx: radius + 3, ry: radius * 0.55, class: "disc", fill: colour }, body);
    } else {
      el("circle", { cx: 0, cy: 0, r: radius, class: "disc", fill: colour }, body);
    }
    if (!ghost) {
      text(g, 0, 0, (f.label || f.kind || "?").slice(0, 1).toUpperCase(), "initial");
      const badges = states.filter((s) => !DEAD.has(s));
      // Up to four badges in a row under the disc (a fifth and more show in the tooltip).
      const shown = badges.slice(0, 4);
      shown.forEach((s, i) => {
        const bx = 14 * (i - (shown.length - 1) / 2);
        // Each badge is a group of its own with its meaning from the ruleset's glossary as its
        // <title>: the tooltip over the badge, and the name assistive technology reads.
        const badge = el("g", { class: "badge-group", "data-state": s }, g);
        el("rect", { x: bx - 7, y: 14, width: 14, height: 10, rx: 2, class: `badge badge-${s.replace(/\W+/g, "-")}` }, badge);
        text(badge, bx, 19, badgeOf(s), "badge-text");
        el("title", {}, badge).appendChild(document.createTextNode(this.stateMeaning(s)));
      });
      if (dead) {
        el("path", { d: "M-11,-11 L11,11 M11,-11 L-11,11", class: "dead-cross" }, g);
      }
      const title = el("title", {}, g);
      const where = `at ${f.hex[0]},${f.hex[1]} facing ${COMPASS[f.facing] || f.facing}`;
      const what = `${f.seat}: ${f.label} ${where}${states.length ? " — " + states.join(", ") : ""}`;
      title.appendChild(document.createTextNode(what));
    }
    return g;
  }

  // Mark the figures a blow landed on in the last phase (data-struck, and a line in their
  // tooltip); with `flash` they also get the class that plays the short hit flash (board.css).
  setStruck(ids, flash = false) {
    for (const g of this.layers.figures.querySelectorAll("g[data-figure]")) {
      const hit = ids.has(g.dataset.figure);
      g.toggleAttribute("data-struck", hit);
      g.classList.toggle("flash", hit && flash);
      const title = g.querySelector(":scope > title");
      if (hit && title && !title.textContent.endsWith(STRUCK)) title.textContent += STRUCK;
    }
  }

  // Highlight the hexes a decision offers (option.hex, decision.hexes).
  setLegal(hexes) {
    const legal = new Set(hexes.map(([q, r]) => `${q},${r}`));
    if ([...legal].some((k) => !this.legal.has(k)) || legal.size !== this.legal.size) {
      this.focusPending = legal.size > 0;
    }
    this.legal = legal;
    if (!this.hexNodes) return;
    for (const [key, node] of this.hexNodes) node.classList.toggle("legal", this.legal.has(key));
    this._focusLegal();
  }

  // On a phone a whole arena leaves a hex about 20 px tall, too small to tap: when a decision
  // offers hexes the view is centred on them and zoomed in until a hex is 48 px tall, clear of
  // the 44 px target size (WCAG 2.5.5); never zoomed out. A mouse is precise enough for the
  // whole arena.
  _focusLegal(minPx = 48) {
    if (!this.focusPending || !this.view || !this.legal.size) return;
    const rect = this.svg.getBoundingClientRect();
    if (!this.touch.matches || !rect.width || !rect.height) return;
    this.focusPending = false;
    const [x, y, w, h] = this.view;
    const perPx = Math.max(w / rect.width, h / rect.height);
    const hexPx = (Math.sqrt(3) * SIZE) / perPx;
    if (hexPx >= minPx) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const key of this.legal) {
      const [px, py] = hexToPixel(...key.split(",").map(Number));
      x0 = Math.min(x0, px); y0 = Math.min(y0, py); x1 = Math.max(x1, px); y1 = Math.max(y1, py);
    }
    const k = hexPx / minPx;
    const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
    this.setView([cx - (w * k) / 2, cy - (h * k) / 2, w * k, h * k]);
  }

  setSelected(hex) {
    if (!this.hexNodes) return;
    const key = hex ? `${hex[0]},${hex[1]}` : null;
    for (const [k, node] of this.hexNodes) node.classList.toggle("selected", k === key);
  }

  // The ghost of a move: its path and the figure where it ends, facing its new way.
  setGhost(option, seat) {
    const layer = this.layers.ghost;
    layer.replaceChildren();
    if (!option || !this.scene) return;
    const path = option.path || [];
    const end = option.hex || (path.length ? path[path.length - 1] : null);
    const me = (this.scene.figures || []).find((f) => f.seat === seat);
    if (path.length) {
      const pts = path.map(([q, r]) => hexToPixel(q, r));
      if (me) pts.unshift(hexToPixel(me.hex[0], me.hex[1]));
      el("polyline", { points: points(pts), class: "ghost-path" }, layer);
    }
    if (me && (end || option.facing !== undefined)) {
      const ghost = { ...me, hex: end || me.hex, facing: option.facing ?? me.facing, states: [] };
      layer.appendChild(this.figure(ghost, true));
    }
  }

  // The last phase's movement: one arrow per figure along the hexes it went through
  // ([{seat, figure, points: [[q, r], ...]}]); a dashed outline as well as the seat's colour, so
  // that the arrow does not rest on colour alone.
  setArrows(arrows) {
    const layer = this.layers.arrows;
    layer.replaceChildren();
    this._ensureArrowHead();
    for (const a of arrows || []) {
      if (!a.points || a.points.length < 2) continue;
      const pts = a.points.map(([q, r]) => hexToPixel(q, r));
      const path = a.points.map((p) => p.join(",")).join(" ");
      const g = el("g", { class: "move-arrow", "data-arrow": a.figure, "data-path": path }, layer);
      el("polyline", { points: points(pts), class: "arrow-under" }, g);
      el("polyline", { points: points(pts), class: "arrow-line", stroke: this.colour(a.seat), "marker-end": "url(#arrow-head)" }, g);
      const title = el("title", {}, g);
      title.appendChild(document.createTextNode(`${a.figure} moved ${a.points.map((p) => p.join(",")).join(" → ")}`));
    }
  }

  _ensureArrowHead() {
    if (this.svg.querySelector("#arrow-head")) return;
    this._ensurePattern();
    const defs = this.svg.querySelector("defs");
    const m = el("marker", { id: "arrow-head", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#1d1b17" }, m);
  }

  // -- zoom and pan ------------------------------------------------------------------------
  fit() {
    const hexes = (this.scene && this.scene.hexes) || [];
    if (!hexes.length) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [q, r] of hexes) {
      const [x, y] = hexToPixel(q, r);
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
    const m = SIZE * 1.6;
    this.setView([x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m]);
  }

  setView(v) {
    this.view = v;
    this.svg.setAttribute("viewBox", v.map((n) => n.toFixed(2)).join(" "));
  }

  // Zoom by `factor` (>1 zooms in) about the point (px, py) of the viewBox, the centre by default.
  zoom(factor, px = null, py = null) {
    if (!this.view) return;
    const [x, y, w, h] = this.view;
    const nw = Math.min(Math.max(w / factor, SIZE * 4), SIZE * 400);
    const f = w / nw;
    const cx = px ?? x + w / 2;
    const cy = py ?? y + h / 2;
    this.setView([cx - (cx - x) / f, cy - (cy - y) / f, nw, h / f]);
  }

  _toView(clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    const [x, y, w, h] = this.view;
    // preserveAspectRatio xMidYMid meet: one scale for both axes, centred.
    const s = Math.max(w / rect.width, h / rect.height);
    const ox = x + w / 2 - (rect.width * s) / 2;
    const oy = y + h / 2 - (rect.height * s) / 2;
    return [ox + (clientX - rect.left) * s, oy + (clientY - rect.top) * s, s];
  }

  _panning() {
    const svg = this.svg;
    svg.addEventListener(
      "wheel",
      (ev) => {
        if (!this.view) return;
        ev.preventDefault();
        const [px, py] = this._toView(ev.clientX, ev.clientY);
        this.zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, px, py);
      },
      { passive: false },
    );
    let start = null;
    svg.addEventListener("pointerdown", (ev) => {
      if (!this.view || ev.button !== 0) return;
      start = { x: ev.clientX, y: ev.clientY, view: [...this.view], id: ev.pointerId };
      this.dragged = false;
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!start) return;
      const dx = ev.clientX - start.x;
      const dy = ev.clientY - start.y;
      if (!this.dragged && Math.hypot(dx, dy) < 5) return;
      if (!this.dragged) svg.setPointerCapture(start.id);
      this.dragged = true;
      const [, , s] = this._toView(0, 0);
      const [x, y, w, h] = start.view;
      this.setView([x - dx * s, y - dy * s, w, h]);
    });
    const end = () => {
      start = null;
      // A click fires after pointerup: let it see that this was a drag, then forget it.
      setTimeout(() => { this.dragged = false; }, 0);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
  }
}
