// What the arena page adds around the board: the "last phase" strip (both revealed orders, the
// hits, wounds and CF changes, read from the events every seat is sent), the movement arrows of
// that phase, the animation toggle (remembered; off under prefers-reduced-motion) and the
// board/orders/log tabs of the narrow layout.
//
// DOM: #last-phase (li[data-kind="order|hit|wound"][data-seat]), #arrows g[data-arrow=figure][data-path="q,r q,r …"],
// #animate (checkbox), body.animate while animation is on, .tabs button[data-tab], body[data-tab].

const BOUNDARY = new Set(["phase", "turn"]);
// The events that open a phase, before anything in it is resolved.
const OPENING = new Set(["phase", "turn", "initiative"]);
const HIT = /attack|strike|crt|throw|hit|critical|kick|net|cleave/;
const WOUND = /wound|cf_|dead|stunned|fall|unconscious/;
// A collision's push puts a figure in a hex too (§8.4.1 "placed", with its figure and hex).
const MOVE = new Set(["move", "moved", "placed"]);

// Indices where a phase starts: a phase or turn event, or the first initiative of an exchange.
export function boundaries(events) {
  const out = [];
  events.forEach((ev, i) => {
    const prev = i ? events[i - 1].type : null;
    if (BOUNDARY.has(ev.type) || (ev.type === "initiative" && prev !== "initiative")) out.push(i);
  });
  return out;
}

// The orders a phase reveals: a seat's plot, order or move (a string, not a turn order's list)
// and, in the Colosseum, its CF allocation (§9.4.1).
const ORDER_KEYS = ["plot", "order", "move", "allocation"];

function revealedOrder(ev) {
  if (!ev.seat) return null;
  for (const key of ORDER_KEYS) if (typeof ev[key] === "string") return ev[key];
  return null;
}

// The last phase: the latest one in which something was resolved (an event besides those that
// open it), [start, end) of the events, or null. A Colosseum phase is open while its CFs are
// being allocated, its plots revealed and its figures moved (§5.2.2): it is that phase, not the
// one before, though no later "phase" event has closed it yet. A phase that has only begun (a
// "phase" event, a quick-rules turn's AP roll, an exchange's initiative rolls) is not.
export function lastPhase(events) {
  const b = boundaries(events);
  for (let k = b.length - 1; k >= 0; k--) {
    const end = k + 1 < b.length ? b[k + 1] : events.length;
    for (let i = b[k]; i < end; i++) if (!OPENING.has(events[i].type)) return [b[k], end];
  }
  return null;
}

// The phase's name from the numbers its first event carries: "Turn 2, phase 3" (Colosseum
// §5.2), "Round 4: red's turn" (quick rules), "Exchange 5" (skirmish: its initiative rolls).
function phaseName(events, start) {
  const ev = events[start];
  if (Number.isInteger(ev.turn) && Number.isInteger(ev.phase)) return `Turn ${ev.turn}, phase ${ev.phase}`;
  if (Number.isInteger(ev.round) && ev.seat) return `Round ${ev.round}: ${ev.seat}'s turn`;
  if (ev.type === "initiative") return `Exchange ${boundaries(events.slice(0, start + 1)).length}`;
  return (ev.text || "").replace(/\s*\(.*\)$/, "");
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

// -- who was struck ------------------------------------------------------------------------------
// A blow that did not land: a miss (quick §7.3, skirmish §4.3.3), a Colosseum "-" or fumble
// (§9.6), a thrown weapon that falls short (§13.3.2).
const MISSED_RESULTS = new Set(["-", "F", "miss", "out of reach"]);
const MISSED = /\bmiss(es|ed)?\b|no harm|finds nobody|no effect/i;

function landed(ev) {
  if (ev.hit === false) return false;
  if (typeof ev.result === "string" && MISSED_RESULTS.has(ev.result)) return false;
  return !MISSED.test(ev.text || "");
}

function escaped(word) {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// The figures a blow of the span landed on: the event's target where it names one (quick,
// skirmish), else the one figure other than the striker that its sentence names (a Colosseum CRT
// line "red -> blue's head", whose striker is its side, §9.5). An event with no striker (the
// attack sequence, a wound roll) names nobody struck.
export function struckFigures(events, span, figures, seats) {
  const out = new Set();
  if (!span) return out;
  const find = (name) => figures.find((f) => f.id === name || f.seat === name);
  for (const ev of events.slice(span[0], span[1])) {
    if (!HIT.test(ev.type || "") || !landed(ev)) continue;
    if (typeof ev.target === "string") {
      const f = find(ev.target);
      if (f) out.add(f.id);
      continue;
    }
    const striker = ev.seat || ev.figure || (Number.isInteger(ev.side) ? seats[ev.side] : null);
    if (!striker) continue;
    const named = figures.filter(
      (f) => f.id !== striker && f.seat !== striker && new RegExp(`\\b${escaped(f.id)}\\b`).test(ev.text || ""),
    );
    if (named.length === 1) out.add(named[0].id);
  }
  return out;
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
  // Focusable: a long phase scrolls inside the strip, by keyboard too.
  list.tabIndex = 0;
  list.setAttribute("aria-label", "what the last phase revealed and did");
  node.append(heading, list);
  if (!span) {
    list.appendChild(item("none", null, "Nothing resolved yet."));
    list.firstChild.firstChild.textContent = "—";
    return;
  }
  const [s, e] = span;
  const slice = events.slice(s, e);
  heading.textContent = `Last phase: ${phaseName(events, s)}`;
  const orders = new Map();
  for (const ev of slice) {
    const o = revealedOrder(ev);
    if (o !== null) orders.set(ev.seat, [...(orders.get(ev.seat) || []), o]);
  }
  for (const [seat, os] of orders) list.appendChild(item("order", seat, `${seat}: ${os.join(" · ")}`));
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
