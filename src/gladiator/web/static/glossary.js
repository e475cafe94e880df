// What the orders, badges and sheet rows of a ruleset mean: the ruleset's glossary (its
// presentation module, sent with GET /api/rulesets), a meaning composed for any order written
// in its notation, and a legend of everything a player may meet.

import { badgeOf } from "./hexsvg.js";
import { getJSON } from "./net.js";

let described = null; // Promise of the /api/rulesets answer, fetched once a page

export function rulesetInfo(name) {
  if (!described) described = getJSON("/api/rulesets").catch(() => []);
  return described.then((all) => (Array.isArray(all) ? all.find((r) => r.name === name) : null) || null);
}

export async function loadGlossary(name) {
  const info = await rulesetInfo(name);
  const g = (info && info.glossary) || {};
  return { orders: g.orders || {}, states: g.states || {}, rows: g.rows || {}, notes: g.notes || [], rules: (info && info.rules) || null };
}

// A rotation (2L), a throw or kick +TW-HEAD, an action SFL or RO-FL, a target >blue, the empty -.
const TOKEN = /\(\d?[LR]\)|\+[A-Z]+\d?(?:-[A-Z]+)?|[A-Z]+\d*(?:-[A-Z]+)*|>\w+|^-$/g;

function tokenMeaning(tok, orders) {
  if (orders[tok]) return orders[tok];
  if (tok.startsWith(">")) return `at ${tok.slice(1).toLowerCase()}`;
  const cut = tok.indexOf("-");
  if (cut > 0) {
    const base = orders[tok.slice(0, cut)];
    const side = orders[tok.slice(cut)];
    if (base) return side ? `${base}: ${side}` : base;
  }
  return null;
}

// The meaning of an order in the notation, read token by token in the order written (so
// "(R)F" turns and then moves, "F(R)" moves and then turns); null when nothing is known.
export function meaningOf(text, glossary) {
  if (!glossary || !text) return null;
  const orders = glossary.orders || {};
  const upper = text.trim().toUpperCase();
  if (orders[upper]) return orders[upper];
  const tokens = upper.match(TOKEN) || [];
  const parts = tokens.map((t) => tokenMeaning(t, orders));
  if (!parts.length || parts.some((p) => p === null)) return null;
  return parts.join(", then ");
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function table(caption, rows) {
  if (!rows.length) return null;
  const t = h("table", { class: "legend-table" }, h("caption", {}, caption));
  for (const [a, b, c] of rows) t.append(h("tr", {}, h("th", { scope: "row" }, a), c === undefined ? null : h("td", { class: "badge-code" }, c), h("td", {}, b)));
  return t;
}

// The legend: notes on the notation, every order token, every badge (with the letters drawn on
// the board) and every sheet row, and a link to the rules reference.
export function legend(glossary) {
  const box = h("details", { class: "order-help", id: "order-help" }, h("summary", {}, "What the orders and badges mean"));
  if (glossary.notes.length) box.append(h("ul", { class: "legend-notes" }, ...glossary.notes.map((n) => h("li", {}, n))));
  box.append(
    table("Orders", Object.entries(glossary.orders).map(([k, v]) => [k, v])) || "",
    table("Badges", Object.entries(glossary.states).map(([k, v]) => [k, v, badgeOf(k)])) || "",
    table("Log sheet", Object.entries(glossary.rows).map(([k, v]) => [k, v])) || "",
  );
  if (glossary.rules) box.append(h("p", {}, h("a", { href: glossary.rules, target: "_blank", rel: "noopener", id: "rules-link" }, "The rules reference")));
  return box;
}

// Tooltips on the sheet rows of the panels: a row's label ("CF", "Armour head") is looked up
// whole, then by its first word.
export function explainRows(root, glossary) {
  for (const cell of root.querySelectorAll("th, dt, .row-key, .key")) {
    if (cell.title) continue;
    const key = cell.textContent.trim();
    const meaning = glossary.rows[key] || glossary.rows[key.split(" ")[0]];
    if (meaning) cell.title = meaning;
  }
}
