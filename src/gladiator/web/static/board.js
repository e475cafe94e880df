// What the arena page adds around the board: the "last phase" strip (both revealed orders, the
// hits, wounds and CF changes, read from the events every seat is sent), the movement arrows of
// that phase, the animation toggle (remembered; off under prefers-reduced-motion) and the
// board/orders/log tabs of the narrow layout.
//
// DOM: #last-phase (li[data-kind="order|hit|wound"][data-seat]), #arrows g[data-arrow=figure],
// #animate (checkbox), body.animate while animation is on, .tabs button[data-tab], body[data-tab].

const BOUNDARY = new Set(["phase", "turn"]);
const HIT = /attack|strike|crt|throw|hit|critical|kick|net|cleave/;
const WOUND = /wound|cf_|dead|stunned|fall|unconscious/;
const MOVE = new Set(["move", "moved"]);

// Indices where a phase starts: a phase or turn event, or the first initiative of an exchange.
export function boundaries(events) {
  const out = [];
  events.forEach((ev, i) => {
    const prev = i ? events[i - 1].type : null;
    if (BOUNDARY.has(ev.type) || (ev.type === "initiative" && prev !== "initiative")) out.push(i);
  });
  return out;
}

// The last phase that is over: [start, end) of the events, or null.
export function lastPhase(events) {
  const b = boundaries(events);
  if (b.length < 2) return null;
  return [b[b.length - 2], b[b.length - 1]];
}

function revealedOrder(ev) {
  for (const key of ["plot", "order", "move"]) if (typeof ev[key] === "string" && ev.seat) return ev[key];
  return null;
}

function where(ev) {
  if (!MOVE.has(ev.type)) return null;
  const hex = ev.to || ev.hex;
  return Array.isArray(hex) && hex.length >= 2 ? [hex[0], hex[1]] : null;
}

// Each figure's path through the phase: where it stood at the start (the last hex the events
// gave it before, or the scene held then), then every hex a move event puts it in.
export function phaseArrows(events, span, figures, startScene) {
  const [s, e] = span;
  const figOf = (ev) => ev.figure || (figures.find((f) => f.seat === ev.seat) || {}).id;
  const arrows = [];
  for (const f of figures) {
    const pts = [];
    const held = startScene && (startScene.figures || []).find((g) => g.id === f.id);
    if (held) pts.push(held.hex);
    else {
      for (let i = s - 1; i >= 0; i--) {
        const h = where(events[i]);
        if (h && figOf(events[i]) === f.id) { pts.push(h); break; }
      }
    }
    for (let i = s; i < e; i++) {
      const h = where(events[i]);
      if (!h || figOf(events[i]) !== f.id) continue;
      const last = pts[pts.length - 1];
      if (!last || last[0] !== h[0] || last[1] !== h[1]) pts.push(h);
    }
    if (pts.length >= 2) arrows.push({ figure: f.id, seat: f.seat, points: pts });
  }
  return arrows;
}

function item(kind, seat, text) {
  const li = document.createElement("li");
  li.dataset.kind = kind;
  if (seat) li.dataset.seat = seat;
  const tag = document.createElement("span");
  tag.className = "strip-tag";
  tag.textContent = kind === "order" ? "Order" : kind === "hit" ? "Hit" : "Wound/CF";
  li.append(tag, " ", text);
  return li;
}

// Fill the strip with the last phase: orders first (one line per seat), then hits, then wounds.
export function renderStrip(node, events, span) {
  node.replaceChildren();
  const heading = document.createElement("h2");
  heading.textContent = "Last phase";
  const list = document.createElement("ul");
  list.id = "last-phase";
  node.append(heading, list);
  if (!span) {
    list.appendChild(item("none", null, "Nothing resolved yet."));
    list.firstChild.firstChild.textContent = "—";
    return;
  }
  const [s, e] = span;
  const slice = events.slice(s, e);
  heading.textContent = `Last phase: ${events[s].text || ""}`.replace(/\s*\(.*\)$/, "");
  const orders = new Map();
  for (const ev of slice) {
    const o = revealedOrder(ev);
    if (o !== null) orders.set(ev.seat, [...(orders.get(ev.seat) || []), o]);
  }
  for (const [seat, os] of orders) list.appendChild(item("order", seat, `${seat}: ${os.join(" ")}`));
  for (const ev of slice) if (HIT.test(ev.type || "")) list.appendChild(item("hit", ev.seat, ev.text || ev.type));
  for (const ev of slice) if (WOUND.test(ev.type || "")) list.appendChild(item("wound", ev.seat, ev.text || ev.type));
}

// -- the animation toggle ------------------------------------------------------------------------
const KEY = "gladiator.animate";

export function setupAnimationToggle(box) {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const stored = localStorage.getItem(KEY);
  box.checked = stored === null ? !reduced : stored === "1";
  const apply = () => document.body.classList.toggle("animate", box.checked);
  box.addEventListener("change", () => {
    localStorage.setItem(KEY, box.checked ? "1" : "0");
    apply();
  });
  apply();
}

// -- the tabs of the narrow layout ---------------------------------------------------------------
export function setupTabs(bar) {
  const buttons = [...bar.querySelectorAll("button[data-tab]")];
  const show = (tab) => {
    document.body.dataset.tab = tab;
    for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.tab === tab));
  };
  for (const b of buttons) b.addEventListener("click", () => show(b.dataset.tab));
  show("board");
}
