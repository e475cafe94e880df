// The lobby: pick a ruleset, set its options (a form made from the default options), choose who
// plays each seat (a human or a bot), create the match and hand out its links; list matches.
//
// DOM for tests: #ruleset (select), #options with one field per option ([data-opt="NAME"];
// lists: [data-opt="NAME"][data-index="i"] plus .add/.remove buttons), #options-error,
// #seats tr[data-seat] > select, #seed-input, #both-sides (DM3), #create, #create-error,
// #created a[data-seat] (seat links), #hotseat-link, #spectator-link, #commitment, and with
// both sides #other-side [data-twin-seat] (the twin's seat links or bots),
// #running and #finished rows tr[data-match] with a.spectate / a.replay links and td.turn
// ("waiting for SEAT · TIME left"), #refresh, #rules-link (the ruleset's rules reference),
// #my-matches (turns.js), the correspondence choice (correspondence_form.js).
// A new match's first seat is human and the others a bot of the default level (normal).

import { h } from "./dom.js";
import { getJSON, postJSON } from "./net.js";
import { seatColour } from "./hexsvg.js";
import { correspondenceBody, drawEmails, setupCorrespondence } from "./correspondence_form.js";
import { deadlineRule, waitingText } from "./deadline.js";
import { rememberSeats } from "./my_matches.js";
import { refreshMyMatches, startMyMatches } from "./turns.js";

const $ = (sel) => document.querySelector(sel);

const lobby = {
  rulesets: [],
  bots: [],
  botsOf: {},
  levels: null, // GET /api/levels: {levels, default, rulesets: {name: [{level, bot, budget}]}}
  current: null, // the ruleset description
  options: {}, // the options being edited (typed values)
  seats: [], // seat names for the options as normalised
  choice: new Map(), // seat -> "human" | "level:LEVEL" | "bot:NAME"
  valid: false,
  previewTimer: null,
  previewSeq: 0,
};

function showError(sel, text) {
  const node = $(sel);
  node.textContent = text || "";
  node.hidden = !text;
}

async function start() {
  $("#refresh").addEventListener("click", () => {
    loadMatches();
    refreshMyMatches();
  });
  $("#create").addEventListener("click", create);
  $("#ruleset").addEventListener("change", () => pick($("#ruleset").value));
  setupCorrespondence();
  startMyMatches();
  try {
    const [rulesets, bots, levels] = await Promise.all([
      getJSON("/api/rulesets"),
      getJSON("/api/bots"),
      getJSON("/api/levels").catch(() => null), // an older server has no levels: names only
    ]);
    lobby.rulesets = rulesets;
    lobby.bots = Array.isArray(bots) ? bots : bots.bots || [];
    lobby.levels = levels;
    // Per ruleset, only the bots that play it (an older server ignores the parameter).
    lobby.botsOf = {};
    await Promise.all(
      rulesets.map(async (r) => {
        const list = await getJSON(`/api/bots?ruleset=${encodeURIComponent(r.name)}`).catch(() => null);
        if (Array.isArray(list)) lobby.botsOf[r.name] = list;
      }),
    );
  } catch (err) {
    showError("#options-error", `The server did not answer: ${err.message}`);
    return;
  }
  const select = $("#ruleset");
  for (const r of lobby.rulesets) select.appendChild(h("option", { value: r.name }, `${r.title} (${r.name})`));
  if (lobby.rulesets.length) pick(lobby.rulesets[0].name);
  loadMatches();
}

function pick(name) {
  const r = lobby.rulesets.find((x) => x.name === name);
  if (!r) return;
  lobby.current = r;
  lobby.options = structuredClone(r.options || {});
  lobby.choice = new Map();
  const rules = $("#rules-link");
  if (rules) {
    rules.href = r.rules || `/rules/${encodeURIComponent(r.name)}`;
    rules.textContent = `Rules reference: ${r.title}`;
  }
  drawOptions();
  setSeats(r.seats || []);
  lobby.valid = true;
  showError("#options-error", "");
  updateCreate();
}

// -- the options form --------------------------------------------------------------------------
function kindOf(value) {
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (Array.isArray(value)) return "list";
  return "string";
}

function note(name) {
  const notes = lobby.current.option_notes;
  if (!notes) return null;
  const text = Array.isArray(notes) ? null : notes[name];
  return typeof text === "string" ? text : null;
}

// What the ruleset's JSON Schema says of an option: its allowed values (an enum, or the enum of
// a list's items) and its bounds, so few-valued options get a choice list, not a text box.
function schemaOf(name) {
  const props = (lobby.current.options_schema || {}).properties || {};
  const prop = props[name] || {};
  const item = prop.items || {};
  return {
    choices: Array.isArray(prop.enum) ? prop.enum : null,
    itemChoices: Array.isArray(item.enum) ? item.enum : null,
    min: typeof prop.minimum === "number" ? prop.minimum : null,
    max: typeof prop.maximum === "number" ? prop.maximum : null,
  };
}

function drawOptions() {
  const form = $("#options");
  form.replaceChildren();
  const defaults = lobby.current.options || {};
  for (const [name, value] of Object.entries(lobby.options)) {
    const row = h("div", { class: "option-row" });
    const label = h("span", { class: "option-name" }, name.replace(/_/g, " "));
    row.appendChild(label);
    const schema = schemaOf(name);
    if (kindOf(value) === "list") {
      row.appendChild(listField(name, value, defaults[name] || [], schema.itemChoices));
    } else {
      const attrs = { "data-opt": name, "aria-label": name };
      if (schema.min !== null) attrs.min = schema.min;
      if (schema.max !== null) attrs.max = schema.max;
      row.appendChild(scalarField(value, (v) => { lobby.options[name] = v; changed(); }, attrs, schema.choices));
    }
    const text = note(name);
    if (text) row.appendChild(h("span", { class: "hint" }, text));
    form.appendChild(row);
  }
}

function scalarField(value, onChange, attrs, choices = null) {
  const kind = kindOf(value);
  let input;
  if (choices && choices.length) {
    input = h("select", attrs);
    for (const c of choices) {
      const opt = h("option", { value: String(c) }, String(c));
      if (c === value) opt.selected = true;
      input.appendChild(opt);
    }
    input.addEventListener("change", () => onChange(choices[input.selectedIndex]));
  } else if (kind === "bool") {
    input = h("input", { type: "checkbox", ...attrs });
    input.checked = value;
    input.addEventListener("change", () => onChange(input.checked));
  } else if (kind === "int" || kind === "float") {
    input = h("input", { type: "number", step: kind === "int" ? 1 : "any", value, ...attrs });
    input.addEventListener("input", () => {
      const v = kind === "int" ? Number.parseInt(input.value, 10) : Number.parseFloat(input.value);
      // Something that is not a number is sent as typed, so the server names the problem.
      onChange(Number.isFinite(v) ? v : input.value);
    });
  } else {
    input = h("input", { type: "text", value: value === null ? "" : String(value), ...attrs });
    input.addEventListener("input", () => onChange(input.value));
  }
  return input;
}

// A list option (one class per gladiator, one flag per seat): a field per element, and add /
// remove buttons where the list may change length (the server says when it may not).
function listField(name, list, defaults, choices = null) {
  const wrap = h("span", { class: "list-field" });
  const sample = list.length ? list[list.length - 1] : defaults.length ? defaults[0] : "";
  list.forEach((value, i) => {
    wrap.appendChild(
      scalarField(value, (v) => { lobby.options[name][i] = v; changed(); }, {
        "data-opt": name,
        "data-index": i,
        "aria-label": `${name} ${i + 1}`,
      }, choices),
    );
  });
  const add = h("button", { type: "button", class: "add", "aria-label": `add to ${name}` }, "+");
  add.addEventListener("click", () => {
    lobby.options[name].push(structuredClone(sample));
    drawOptions();
    changed();
  });
  const remove = h("button", { type: "button", class: "remove", "aria-label": `remove from ${name}`, disabled: list.length <= 1 }, "−");
  remove.addEventListener("click", () => {
    lobby.options[name].pop();
    drawOptions();
    changed();
  });
  wrap.append(add, remove);
  return wrap;
}

function changed() {
  lobby.valid = false;
  updateCreate();
  clearTimeout(lobby.previewTimer);
  lobby.previewTimer = setTimeout(preview, 250);
}

async function preview() {
  const seq = ++lobby.previewSeq;
  const name = lobby.current.name;
  try {
    const res = await postJSON(`/api/rulesets/${encodeURIComponent(name)}/preview`, { options: lobby.options });
    if (seq !== lobby.previewSeq || name !== lobby.current.name) return;
    setSeats(res.seats || []);
    lobby.valid = true;
    showError("#options-error", "");
  } catch (err) {
    if (seq !== lobby.previewSeq) return;
    lobby.valid = false;
    showError("#options-error", err.message);
  }
  updateCreate();
}

// -- seats -------------------------------------------------------------------------------------
function seatName(s) {
  return typeof s === "string" ? s : s.seat || s.name;
}

// The bot levels of a ruleset (easy, normal, hard) with the bot and budget each stands for.
function levelsOf(ruleset) {
  if (!lobby.levels || !lobby.levels.rulesets) return [];
  return lobby.levels.rulesets[ruleset] || [];
}

// The first seat is the player's; every other seat a bot of the default level, where the
// server has levels for this ruleset.
function defaultSeat(i) {
  const levels = levelsOf(lobby.current && lobby.current.name);
  const wanted = lobby.levels && lobby.levels.default;
  if (i === 0 || !levels.length) return "human";
  const level = levels.find((lv) => lv.level === wanted) || levels[0];
  return `level:${level.level}`;
}

function setSeats(seats) {
  lobby.seats = seats.map(seatName);
  const table = $("#seats");
  table.replaceChildren();
  lobby.seats.forEach((seat, i) => {
    if (!lobby.choice.has(seat)) lobby.choice.set(seat, defaultSeat(i));
    const select = h("select", { "aria-label": `${seat} is played by` });
    select.appendChild(h("option", { value: "human" }, "Human"));
    for (const lv of levelsOf(lobby.current && lobby.current.name)) {
      const label = `Bot, ${lv.level}${lv.level === lobby.levels.default ? " (default)" : ""}: ${lv.bot}`;
      select.appendChild(h("option", { value: `level:${lv.level}` }, label));
    }
    const bots = (lobby.current && lobby.botsOf[lobby.current.name]) || lobby.bots;
    for (const bot of bots) select.appendChild(h("option", { value: `bot:${bot}` }, `Bot: ${bot}`));
    select.value = lobby.choice.get(seat);
    select.addEventListener("change", () => {
      lobby.choice.set(seat, select.value);
      drawEmails(lobby.seats, lobby.choice);
    });
    const swatch = h("span", { class: "swatch" });
    swatch.style.background = seatColour(seat, i);
    table.appendChild(h("tr", { "data-seat": seat }, h("th", { scope: "row" }, swatch, seat), h("td", {}, select)));
  });
  drawEmails(lobby.seats, lobby.choice);
}

function updateCreate() {
  $("#create").disabled = !lobby.valid || !lobby.seats.length;
}

// -- creating a match ----------------------------------------------------------------------------
function absolute(link) {
  return new URL(link, location.origin).href;
}

function linkLine(label, href, attrs) {
  const a = h("a", { href: absolute(href), target: "_blank", rel: "noopener", ...attrs }, absolute(href));
  const copy = h("button", { type: "button", class: "copy" }, "copy");
  copy.addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(a.href));
  return h("li", {}, h("span", { class: "link-label" }, label), a, copy);
}

async function create() {
  const body = {
    ruleset: lobby.current.name,
    options: lobby.options,
    seats: Object.fromEntries(lobby.seats.map((s) => [s, lobby.choice.get(s) || "human"])),
    ...correspondenceBody(), // deadline and emails, only for a correspondence match
  };
  const seed = $("#seed-input").value.trim();
  if (seed) body.seed = Number.parseInt(seed, 10);
  if ($("#both-sides").checked) body.both_sides = true; // DM3: the deal and its other side
  $("#create").disabled = true;
  showError("#create-error", "");
  try {
    const res = await postJSON("/api/matches", body);
    showCreated(res);
    loadMatches();
    refreshMyMatches();
  } catch (err) {
    showError("#create-error", err.message);
  } finally {
    updateCreate();
  }
}

// Spectator links of the matches created in this browser: the public list carries no tokens.
const SPECTATE_KEY = "gladiator.spectator-links";

function spectatorLinks() {
  try {
    return JSON.parse(localStorage.getItem(SPECTATE_KEY) || "{}");
  } catch {
    return {};
  }
}

function rememberSpectator(id, link) {
  try {
    const links = spectatorLinks();
    links[id] = link;
    localStorage.setItem(SPECTATE_KEY, JSON.stringify(links));
  } catch {
    // storage refused (private window): the link is still shown above
  }
}

function showCreated(res) {
  const box = $("#created");
  box.replaceChildren();
  appendCreated(box, res, true);
  if (res.other_side) {
    // DM3: the same deal from the other side, its links apart from the first match's
    const twin = h("div", { class: "other-side", id: "other-side" });
    twin.appendChild(h("p", { class: "hint" }, "The same deal from the other side: the same sheets and dice, the seats' players swapped."));
    appendCreated(twin, res.other_side, false);
    box.appendChild(twin);
  }
  box.hidden = false;
}

function appendCreated(box, res, first) {
  if (res.spectator) rememberSpectator(res.id, res.spectator);
  const links = Object.entries(res.seats || {}).filter(([, info]) => info && info.link);
  if (links.length) rememberSeats(res.id, lobby.current.name, Object.fromEntries(links.map(([seat, info]) => [seat, info.link])));
  const mark = (attrs) => (first ? attrs : {});
  box.appendChild(h("h3", {}, `Match ${res.id}`));
  const list = h("ul", { class: "links" });
  for (const [seat, info] of Object.entries(res.seats || {})) {
    const mailed = info && info.email ? "; notices go to the e-mail address given" : "";
    if (info && info.link) list.appendChild(linkLine(`${seat} (send to this player only${mailed})`, info.link, first ? { "data-seat": seat } : { "data-twin-seat": seat }));
    else list.appendChild(h("li", first ? { "data-seat": seat } : { "data-twin-seat": seat }, h("span", { class: "link-label" }, seat), info && info.bot ? `bot: ${info.bot}` : `${(info && info.kind) || "bot"}`));
  }
  if (res.hotseat) list.appendChild(linkLine("hotseat (every human seat at this screen)", res.hotseat, mark({ id: "hotseat-link" })));
  if (res.spectator) list.appendChild(linkLine("spectators", res.spectator, mark({ id: "spectator-link" })));
  box.appendChild(list);
  box.appendChild(h("p", { class: "seed" }, "Seed commitment: ", h("code", mark({ id: "commitment" }), res.commitment || "")));
  if (first) box.appendChild(h("p", { class: "hint" }, "The seed stays secret until the match is over; then anyone can check every die with gladiator verify."));
}

// -- the match list ------------------------------------------------------------------------------
function describeSeats(seats) {
  if (!seats) return "";
  const entries = Array.isArray(seats) ? seats.map((s) => [s.seat || s.name || "", s]) : Object.entries(seats);
  return entries
    .map(([seat, s]) => {
      if (typeof s === "string") return `${seat}: ${s}`;
      const who = s.kind === "bot" && s.bot ? `bot ${s.bot}` : s.kind || "";
      return `${seat}${s.label ? ` (${s.label})` : ""}: ${who}`;
    })
    .join(", ");
}

async function loadMatches() {
  let matches;
  try {
    matches = await getJSON("/api/matches");
  } catch (err) {
    showError("#create-error", `The match list did not load: ${err.message}`);
    return;
  }
  if (!Array.isArray(matches)) matches = matches.matches || [];
  const running = $("#running");
  const finished = $("#finished");
  running.replaceChildren();
  finished.replaceChildren();
  for (const m of matches) {
    const done = m.status === "finished";
    const links = h("td", { class: "links" });
    if (done) {
      links.appendChild(h("a", { class: "replay", href: `/replay/${encodeURIComponent(m.id)}` }, "Replay"));
    } else {
      const spectate = m.spectator || spectatorLinks()[m.id] || `/match/${encodeURIComponent(m.id)}`;
      links.appendChild(h("a", { class: "spectate", href: spectate }, "Spectate"));
    }
    const turn = [waitingText(m), deadlineRule(m.deadline)].filter(Boolean).join("; ");
    const outcome = m.outcome ? m.outcome.summary || "" : turn || m.status;
    const row = h(
      "tr",
      { "data-match": m.id },
      h("td", {}, h("code", {}, String(m.id))),
      h("td", {}, m.ruleset || ""),
      h("td", {}, describeSeats(m.seats)),
      h("td", {}, m.created || m.created_at || ""),
      h("td", { class: done ? "outcome" : "turn" }, outcome),
      links,
    );
    (done ? finished : running).appendChild(row);
  }
  if (!running.rows.length) running.appendChild(h("tr", {}, h("td", { class: "empty" }, "none")));
  if (!finished.rows.length) finished.appendChild(h("tr", {}, h("td", { class: "empty" }, "none")));
}

start();
