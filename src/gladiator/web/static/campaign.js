// The campaign page (/campaign/{id}, a human lanista's link carries #t=TOKEN): one stable per
// lanista, the bouts of this munus with links to the arena match of the lanista's own fights,
// his action forms, and the recent steps; it polls the view so a fight's result shows up.
//
// DOM for tests: #campaign-status, section.stable[data-lanista] with .purse and
// tr[data-gladiator] (td.status, td.xp, td.record), #bouts tr[data-bout] (td.status,
// a.play[data-match] for your own fight), #ready-form (#entries input[data-gladiator], #ready),
// #odds-form, #xp-form, #bid-form, #action-error, #action-done, #events li.

import { getJSON } from "./net.js";

const $ = (sel) => document.querySelector(sel);
const id = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.hash.slice(1)).get("t");
const POLL_MS = 1500;
let view = null;
let entriesDrawn = "";

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

function authed(options = {}) {
  const headers = { ...(options.headers || {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  return { ...options, headers };
}

function show(sel, text) {
  const node = $(sel);
  node.textContent = text || "";
  node.hidden = !text;
}

async function refresh() {
  try {
    view = await getJSON(`/api/campaigns/${encodeURIComponent(id)}`, authed());
    show("#load-error", "");
    draw();
  } catch (err) {
    show("#load-error", `The campaign could not be read: ${err.message}`);
  }
}

const name = (lid) => (view.lanistas.find((l) => l.id === lid) || { name: "the house" }).name;
const man = (gid) => (view.gladiators.find((g) => g.id === gid) || { name: gid }).name;

function draw() {
  $("#campaign-name").textContent = view.name;
  document.title = `GLADIATOR — ${view.name}`;
  const winner = view.winner ? ` — won by ${name(view.winner)}` : "";
  const waiting = view.waiting.length ? ` — waiting for ${view.waiting.map(name).join(", ")}` : "";
  $("#campaign-status").textContent = `munus ${view.munus} of ${view.munera}, ${view.phase}${winner}${waiting}`;
  $("#munus-number").textContent = view.munus ? `${view.munus}` : "(none yet)";
  drawBouts();
  drawStables();
  drawEvents();
  drawActions();
}

function drawBouts() {
  const table = $("#bouts");
  table.replaceChildren(h("tr", {}, ...["Bout", "Type", "Sides", "Wager", "Status", "Arena"].map((t) => h("th", {}, t))));
  if (!view.bouts.length) table.appendChild(h("tr", {}, h("td", { class: "empty", colspan: 6 }, "no bouts")));
  for (const b of view.bouts) {
    const sides = b.sides
      .map((s) => `${name(s.lanista)}: ${s.gladiators.map((g) => `${man(g)}${b.styles[g] ? ` (${b.styles[g]})` : ""}`).join(", ") || "beasts"}`)
      .join(" v ");
    const wager = b.wager ? `${b.wager.odds}-1, ${Object.values(b.wager.stakes).join(" / ")}` : "";
    const status = b.status === "settled" ? `settled: ${b.outcome}` : "scheduled";
    const arena = h("td", { class: "fight-links" });
    for (const f of b.fights) {
      const mine = view.you ? Object.entries(f.seats).filter(([, lid]) => lid === view.you).map(([seat]) => seat) : [];
      if (mine.length && !f.over) {
        // All his men in the fight on one page: his token scoped to each of their seats.
        const hash = mine.length === 1 ? `t=${token}` : mine.map((seat) => `t=${token}:${seat}`).join("&");
        const label = mine.length === 1 ? `Play your fight (${mine[0]})` : `Play your men's fight (${mine.join(", ")})`;
        arena.appendChild(h("a", { class: "play", "data-match": f.match, "data-seats": mine.join(" "), href: `/match/${f.match}#${hash}` }, label));
      } else if (f.over) {
        arena.appendChild(h("a", { class: "replay", href: `/replay/${f.match}` }, "replay"));
      } else {
        arena.appendChild(document.createTextNode("in the arena"));
      }
      arena.appendChild(document.createTextNode(" "));
    }
    const row = h("tr", { "data-bout": b.id }, h("td", {}, b.id), h("td", {}, `${b.type}${b.sine_missione ? " (sine missione)" : ""}`),
      h("td", {}, sides), h("td", {}, wager), h("td", { class: "status" }, status), arena);
    table.appendChild(row);
  }
}

function drawStables() {
  const box = $("#stables");
  box.replaceChildren();
  for (const lan of view.lanistas) {
    const you = lan.id === view.you ? " (you)" : "";
    const card = h("section", { class: "card stable", "data-lanista": lan.id },
      h("h2", {}, `${lan.name}${you} `, h("span", { class: "muted" }, lan.kind === "bot" ? "bot" : "human")),
      h("p", {}, "Purse: ", h("span", { class: "purse" }, `${lan.purse}`), " sesterces", lan.out ? ` — out: ${lan.out}` : "", lan.ready ? " — ready" : ""));
    // Focusable: on a phone the table scrolls sideways inside its card, by keyboard too.
    const table = h("table", { class: "matches", tabindex: "0", "aria-label": `${lan.name}'s gladiators` },
      h("tr", {}, ...["Name", "Status", "TR", "ST", "AG", "CN", "W", "CF", "XP", "PR", "Talents", "Record V-S-M / D"].map((t) => h("th", {}, t))));
    for (const g of view.gladiators.filter((x) => x.lanista === lan.id)) {
      const r = g.record;
      table.appendChild(h("tr", { "data-gladiator": g.id }, h("td", {}, g.name), h("td", { class: "status" }, g.status),
        ...["tr", "st", "ag", "cn", "w", "cf"].map((k) => h("td", {}, `${g[k]}`)), h("td", { class: "xp" }, `${g.xp}`),
        h("td", {}, `${g.prestige}`), h("td", {}, g.talents.join(", ")),
        h("td", { class: "record" }, `${r.victories}-${r.stans}-${r.missus} / ${r.defeats}`)));
    }
    card.appendChild(table);
    const ledger = h("details", {}, h("summary", {}, "Ledger"),
      h("ul", { class: "ledger" }, ...lan.ledger.map((e) => h("li", {}, `#${e.seq}: ${e.amount > 0 ? "+" : ""}${e.amount} ${e.memo}`))));
    card.appendChild(ledger);
    box.appendChild(card);
  }
}

function drawEvents() {
  $("#events").replaceChildren(...view.events.map((e) => {
    const bits = [e.kind, e.actor ? name(e.actor) : null, e.bout ? `bout ${e.bout}` : null, e.gladiator ? man(e.gladiator) : null];
    return h("li", { value: e.seq }, bits.filter(Boolean).join(" — "));
  }));
}

function options(select, items) {
  const keep = select.value;
  select.replaceChildren(...items.map(([value, label]) => h("option", { value }, label)));
  if (items.some(([v]) => v === keep)) select.value = keep;
}

function drawActions() {
  const you = view.lanistas.find((l) => l.id === view.you);
  $("#actions").hidden = !you || view.phase === "over";
  if (!you) return;
  $("#you-name").textContent = you.name;
  const mine = view.gladiators.filter((g) => g.lanista === you.id && g.status === "alive");
  const between = view.phase === "between";
  $("#waiting-note").textContent = you.ready
    ? "You are ready: the others, or your fight in the arena, come next."
    : between
      ? "Between munera: spend XP, bid, then enter your men and say you are ready."
      : "In the munus: offer odds, then say you are ready and your fights begin.";
  const key = between ? mine.map((g) => g.id).join(",") : "";
  if (key !== entriesDrawn) {
    entriesDrawn = key;
    const set = $("#entries");
    set.replaceChildren(h("legend", {}, "Men entered in the next munus"), ...mine.map((g) => h("label", { class: "check" },
      h("input", { type: "checkbox", "data-gladiator": g.id, checked: true, "aria-label": `enter ${g.name}` }), ` ${g.name}`)));
  }
  $("#entries").hidden = !between;
  $("#ready").disabled = you.ready;
  const oddsBouts = view.bouts.filter((b) => b.status === "scheduled" && b.sides.some((s) => s.lanista === you.id)
    && b.sides.some((s) => s.lanista && s.lanista !== you.id));
  $("#odds-form").hidden = view.phase !== "munus" || !oddsBouts.length || you.ready;
  options($("#odds-bout"), oddsBouts.map((b) => [b.id, `${b.id} (${b.wager ? b.wager.odds : 1}-1 now)`]));
  $("#xp-form").hidden = !between || !mine.some((g) => g.xp > 0);
  options($("#xp-gladiator"), mine.filter((g) => g.xp > 0).map((g) => [g.id, `${g.name} (${g.xp} XP)`]));
  $("#bid-form").hidden = !between || !view.lots.length;
  options($("#bid-lot"), view.lots.map((l) => [l.gladiator, `${man(l.gladiator)}${l.your_bid ? ` (your bid ${l.your_bid})` : ""}`]));
}

async function send(step) {
  show("#action-error", "");
  show("#action-done", "");
  try {
    await getJSON(`/api/campaigns/${encodeURIComponent(id)}/actions`, authed({
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(step),
    }));
    show("#action-done", `Done: ${step.kind.replace("_", " ")}.`);
  } catch (err) {
    show("#action-error", err.message);
  }
  await refresh();
}

function on(form, make) {
  $(form).addEventListener("submit", (ev) => {
    ev.preventDefault();
    send(make());
  });
}

on("#ready-form", () => {
  if (view.phase !== "between") return { kind: "ready" };
  const entries = [...document.querySelectorAll("#entries input[data-gladiator]")].filter((i) => i.checked).map((i) => i.dataset.gladiator);
  return { kind: "ready", entries };
});
on("#odds-form", () => ({ kind: "offer_odds", bout: $("#odds-bout").value, odds: Number($("#odds-k").value) }));
on("#xp-form", () => ({ kind: "spend_xp", gladiator: $("#xp-gladiator").value, purchases: [{ what: $("#xp-what").value }] }));
on("#bid-form", () => ({ kind: "bid", gladiator: $("#bid-lot").value, amount: Number($("#bid-amount").value) }));

refresh();
setInterval(refresh, POLL_MS);
