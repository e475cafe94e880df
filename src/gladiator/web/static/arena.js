// The arena page: play, watch or hotseat one match over its websocket(s) (docs/web.md).
//
// The URL is /match/{id}#t=TOKEN (one seat or the spectator) or #t=T1&t=T2 (hotseat: several
// seats at one screen; #t=TOKEN:red&t=TOKEN:green, one player's seats under one token). One socket per token. With several tokens one seat is shown at a time;
// before a seat whose decision is secret (or whose scene shows what another must not see) a
// full-screen hand-over hides the board and the previous seat's entry.
//
// Stable DOM for tests:
//   #board                  the SVG board; [data-hex="q,r"] hex polygons (class "legal" when
//                           the decision offers them, "selected" when picked); g[data-seat]
//                           [data-figure] figures (data-states, data-facing, data-struck: a blow
//                           landed on it in the last phase; class "flash" while its hit flash
//                           plays); g.badge-group[data-state] > title its meaning; [data-item] items;
//                           #ghost the move preview
//   #zoom-in #zoom-out #zoom-fit
//   #caption #title #who    scene caption, ruleset title, whose screen this is
//   #seed                   the seed commitment (and, at the end, the revealed seed and nonce)
//   #decision               the order form (see orders.js: [data-option="TEXT"], #option-filter,
//                           [data-slot], #total, [data-hex-option], #arrange, #order-text, #submit)
//   #waiting                "Order given — waiting for …" / "Waiting for …" (an acknowledged
//                           order's form does not come back while its view is the latest)
//   #message                the last error and its legal orders (ul.legal)
//   #clock                  countdowns: span[data-clock-seat]
//   #panels                 .panel[data-seat] (see sheet.js)
//   #events                 li per event, newest last (data-type)
//   #outcome                the result, #outcome-seed, a.replay-link, a.record-link (outcome.js)
//   #deadline #notify-me    a correspondence match's deadline, notifications (arena_turn.js);
//   #lost-link              a link without a token: have the seat's link sent again
//   #handover, #handover button, #handover-text
//   #conn-status            connection state
//   body[data-seat]         the seat shown now ("" for a spectator)

import { lostLink, setupTurn, updateTurn } from "./arena_turn.js";
import { lastPhase, phaseArrows, renderStrip, setupAnimationToggle, setupTabs, struckFigures } from "./board.js";
import { Board } from "./hexsvg.js";
import { citeLinks } from "./cite.js";
import { explainRows, loadGlossary } from "./glossary.js";
import { rememberSeats } from "./my_matches.js";
import { checkOrder, Connection, getJSON } from "./net.js";
import { decisionForm } from "./orders.js";
import { drawOutcome } from "./outcome.js";
import { renderPanels } from "./sheet.js";

const $ = (sel) => document.querySelector(sel);

const matchId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const tokens = new URLSearchParams(location.hash.replace(/^#/, "")).getAll("t").filter(Boolean);
const hotseat = tokens.length > 1;

const game = {
  welcome: null, // the first welcome: title, seats, commitment
  seats: [],
  events: [],
  players: [], // one per token: {conn, seat, role, view, scene, acked}
  shown: null, // the player whose screen this is now
  handoverTo: null, // the player waiting behind the hand-over screen
  formKey: null,
  form: null,
  clocks: new Map(), // seat -> deadline (unix seconds)
  scenes: new Map(), // event count -> the scene shown then (the start of a phase, for its arrows)
  flashed: "", // the last phase whose hit flash has played ("start-end" of its events)
};

const board = new Board($("#board"), {
  onHexClick: (q, r) => game.form && game.form.pickHex(q, r),
});
$("#zoom-in").addEventListener("click", () => board.zoom(1.25));
$("#zoom-out").addEventListener("click", () => board.zoom(1 / 1.25));
$("#zoom-fit").addEventListener("click", () => board.fit());
setupAnimationToggle($("#animate"));
setupTabs($(".tabs"));
$("#handover button").addEventListener("click", () => {
  if (!game.handoverTo) return;
  game.shown = game.handoverTo;
  game.handoverTo = null;
  $("#handover").hidden = true;
  document.body.classList.remove("handing-over");
  render();
});

function start() {
  if (!matchId || !tokens.length) {
    showMessage("This link has no seat or spectator token (#t=…): ask for your link from the lobby.");
    $("#caption").textContent = "No token";
    if (matchId) lostLink(matchId);
    return;
  }
  setupTurn(game, matchId);
  for (const token of tokens) {
    const player = { token, seat: null, role: null, view: null, scene: null, acked: null };
    player.conn = new Connection(matchId, token, {
      welcome: (msg) => onWelcome(player, msg),
      update: (msg) => onUpdate(player, msg),
      ack: (msg) => onAck(player, msg),
      error: (msg) => onError(player, msg),
      voided: (msg) => onVoided(player, msg),
      broken: () => offerResume(player),
      clock: (msg) => onClock(msg),
      status: (text, ok) => setStatus(text, ok),
      fatal: (text) => {
        setStatus(text, false);
        showMessage(text);
      },
    });
    game.players.push(player);
    player.conn.open();
  }
  setInterval(tickClocks, 250);
}

function setStatus(text, ok) {
  const node = $("#conn-status");
  node.textContent = text;
  node.classList.toggle("bad", !ok);
}

function onWelcome(player, msg) {
  player.seat = msg.seat;
  player.role = msg.role;
  if (msg.seat) rememberSeats(matchId, msg.ruleset, { [msg.seat]: `/match/${encodeURIComponent(matchId)}#t=${player.token}` });
  if (!game.welcome) {
    game.welcome = msg;
    game.seats = msg.seats || [];
    $("#title").textContent = msg.title || msg.ruleset || "Arena";
    document.title = `${msg.title || "GLADIATOR"} — arena`;
    $("#seed").textContent = `Seed commitment: ${msg.commitment}`;
    // The meanings of orders and badges (glossary.js): the order form waits for them.
    loadGlossary(msg.ruleset).then((g) => {
      game.glossary = g;
      board.setStates(g.states);
      render();
    });
  }
  render();
}

function onUpdate(player, msg) {
  player.view = msg.view;
  player.scene = msg.scene;
  // Every socket of a match carries the same event list: merge by position.
  const first = msg.first_event || 0;
  if (first < game.events.length && first + msg.events.length > game.events.length) {
    appendEvents(msg.events.slice(game.events.length - first));
  } else if (first === game.events.length) {
    appendEvents(msg.events);
  } else if (first === 0 && msg.events.length < game.events.length) {
    // The server holds fewer events than we do (it was reset): start the log again.
    game.events = [];
    $("#events").replaceChildren();
    appendEvents(msg.events);
  }
  render();
}

function appendEvents(events) {
  const list = $("#events");
  for (const ev of events) {
    game.events.push(ev);
    const li = document.createElement("li");
    li.dataset.type = ev.type || "";
    li.append(citeLinks(ev.text || JSON.stringify(ev), game.welcome && game.welcome.ruleset));
    list.appendChild(li);
  }
  if (events.length) list.scrollTop = list.scrollHeight;
}

function onAck(player, msg) {
  player.acked = msg.order;
  // The server acknowledges an order before it sends the views that follow from it: until they
  // come, the view held is the one this order answered, and its form must not come back.
  player.answered = player.view;
  hideMessage();
  if (player === game.shown) {
    clearForm();
    render();
  }
}

function onError(player, msg) {
  if (player !== game.shown && game.shown) return; // another seat's error stays off this screen
  showMessage(msg.message, msg.legal || []);
}

// The engine failed on a decision (HF1): nothing of it was played, every seat of it asked again.
function onVoided(player, msg) {
  if (player !== game.shown && game.shown) return;
  player.acked = null;
  player.answered = null;
  showMessage(msg.message);
}

// The stored match stops replaying at some order (HF5): say where, and offer to resume it from
// its last good step (the orders from there on are kept in the server's audit, not replayed).
async function offerResume(player) {
  if (game.resumeOffered) return; // hotseat: one offer for every socket of the page
  game.resumeOffered = true;
  const url = `/api/matches/${encodeURIComponent(matchId)}`;
  const auth = { Authorization: `Bearer ${player.token}` };
  let body;
  try {
    await getJSON(`${url}/view`, { headers: auth });
    location.reload(); // it loads again (resumed meanwhile, by another seat)
    return;
  } catch (err) {
    body = err.body || {};
    if (!body.broken) {
      showMessage(err.message);
      return;
    }
  }
  setStatus("this match stops at a stored order", false);
  showMessage(body.error);
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = `Resume from step ${body.broken.step}`;
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await getJSON(body.resume || `${url}/resume`, { method: "POST", headers: auth });
    } catch (err) {
      if (!/nothing/.test(err.message)) {
        showMessage(err.message);
        return;
      }
    }
    location.reload();
  });
  $("#message").appendChild(button);
}

function onClock(msg) {
  if (msg.expired) game.clocks.delete(msg.seat);
  else game.clocks.set(msg.seat, msg.deadline);
  tickClocks();
}

function tickClocks() {
  const node = $("#clock");
  const now = Date.now() / 1000;
  const waiting = new Set(((game.shown || game.players[0] || {}).view || {}).waiting_for || []);
  const spans = [];
  for (const [seat, deadline] of game.clocks) {
    if (deadline <= now - 2 || (game.players.some((p) => p.view) && !waiting.has(seat))) {
      game.clocks.delete(seat);
      continue;
    }
    const span = document.createElement("span");
    span.dataset.clockSeat = seat;
    const left = Math.max(0, Math.ceil(deadline - now));
    span.textContent = `${seat}: ${left} s`;
    span.classList.toggle("urgent", left <= 5);
    spans.push(span);
  }
  node.replaceChildren(...spans);
}

function showMessage(text, legal = []) {
  const node = $("#message");
  node.replaceChildren();
  const p = document.createElement("p");
  p.textContent = text;
  node.appendChild(p);
  if (legal.length) {
    const ul = document.createElement("ul");
    ul.className = "legal";
    for (const l of legal) {
      const li = document.createElement("li");
      li.textContent = l;
      ul.appendChild(li);
    }
    node.appendChild(ul);
  }
  node.hidden = false;
}

function hideMessage() {
  $("#message").hidden = true;
}

// -- which seat is on screen -------------------------------------------------------------------
function mustDecide(player) {
  const v = player.view;
  return Boolean(v && v.decision && v !== player.answered && !(v.submitted || []).includes(player.seat));
}

function choosePlayer() {
  const ready = game.players.filter((p) => p.view);
  if (!ready.length) return null;
  if (game.shown && mustDecide(game.shown)) return game.shown;
  return ready.find(mustDecide) || game.shown || ready[0];
}

// "TOKEN:seat" is one token scoped to one of its seats (a campaign lanista's men in one bout):
// a page whose seats are all opened by one token is one player's, who hides nothing from himself.
const owner = (player) => player.token.split(":")[0];

function needsHandover(from, to) {
  if (!hotseat || from === to) return false;
  if (game.players.every((p) => owner(p) === owner(to))) return false;
  if (to.view && to.view.decision && to.view.decision.secret) return true;
  // A seat's scene may hold what only that seat may see (a written move): hand over then too.
  if (!from) return false;
  return JSON.stringify(from.scene) !== JSON.stringify(to.scene);
}

function render() {
  updateTurn(); // the title, the deadline, a notification (arena_turn.js)
  if (game.handoverTo) return; // the screen is covered; Continue renders
  const want = choosePlayer();
  if (!want) return;
  if (want !== game.shown && needsHandover(game.shown, want)) {
    game.handoverTo = want;
    clearForm();
    board.setGhost(null);
    $("#handover-text").textContent = `Pass the screen to ${want.seat}`;
    document.body.classList.add("handing-over");
    $("#handover").hidden = false;
    $("#handover button").focus();
    return;
  }
  if (want !== game.shown) clearForm();
  game.shown = want;
  draw(want);
}

function draw(player) {
  const { view, scene } = player;
  document.body.dataset.seat = player.seat || "";
  $("#who").textContent = player.seat ? `You are ${player.seat}` : "Spectator";
  if (scene) {
    board.render(scene, game.seats);
    $("#caption").textContent = scene.caption || "";
    renderPanels($("#panels"), scene.panels, game.seats);
    if (game.glossary) explainRows($("#panels"), game.glossary);
    if (!game.scenes.has(game.events.length)) game.scenes.set(game.events.length, scene);
    const span = lastPhase(game.events);
    renderStrip($("#strip"), game.events, span);
    board.setArrows(span ? phaseArrows(game.events, span, scene.figures || [], game.scenes.get(span[0] + 1)) : []);
    // The hit flash plays once, when a phase's blows first show; a later redraw only marks them.
    const key = span ? span.join("-") : "";
    board.setStruck(struckFigures(game.events, span, scene.figures || [], game.seats), key !== game.flashed);
    game.flashed = key;
  }
  if (!view) return;
  if (mustDecide(player)) {
    const key = `${game.events.length}|${JSON.stringify(view.decision)}`;
    if (key !== game.formKey && game.glossary !== undefined) buildForm(player, key);
    $("#waiting").textContent = "";
  } else {
    clearForm();
    const waiting = (view.waiting_for || []).join(", ");
    const given = player.seat && (view === player.answered || (view.submitted || []).includes(player.seat));
    const mine = !hotseat && view.my_order ? ` (${view.my_order})` : "";
    if (view.outcome) $("#waiting").textContent = "";
    else if (given) $("#waiting").textContent = `Order given${mine} — waiting for ${waiting}`;
    else $("#waiting").textContent = waiting ? `Waiting for ${waiting}` : "";
  }
  drawOutcome($("#outcome"), view, matchId);
  tickClocks();
}

function buildForm(player, key) {
  hideMessage();
  game.formKey = key;
  const decision = player.view.decision;
  const number = player.view.decision_number; // the decision this form answers, whatever comes
  game.form = decisionForm($("#decision"), decision, {
    submit: (text) => {
      if (!text) return;
      const id = player.conn.order(text, number);
      if (id === null) showMessage("Not connected: the order was not sent. Try again in a moment.");
    },
    preview: (option) => board.setGhost(option, player.seat),
    select: (hex) => board.setSelected(hex),
    check: (text) => checkOrder(matchId, player.token, text, player.conn.base),
    glossary: game.glossary,
    memory: `${matchId}|${player.seat}`,
  });
  board.setLegal(game.form.legalHexes);
  board.setSelected(null);
  board.setGhost(null);
  game.form.focus();
}

function clearForm() {
  game.form = null;
  game.formKey = null;
  $("#decision").replaceChildren();
  board.setLegal([]);
  board.setSelected(null);
  board.setGhost(null);
}

start();
