// The replay viewer of a finished match: GET /api/matches/{id}/replay?step=K gives the scene and
// view after K steps, the orders of step K and the events it added.
//
// DOM for tests: #first #prev #next #last buttons, #step-slider, #step-label ("Step K of N"),
// #board (as in the arena), #caption, #orders tr[data-seat], #events li, #panels, #outcome,
// #message; body[data-step] is the step shown once it has loaded.

import { loadGlossary } from "./glossary.js";
import { Board } from "./hexsvg.js";
import { getJSON } from "./net.js";
import { renderPanels } from "./sheet.js";

const $ = (sel) => document.querySelector(sel);
const matchId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop() || "");
const board = new Board($("#board"));
const replay = { steps: 0, step: 0, seats: [], loading: 0 };

$("#zoom-in").addEventListener("click", () => board.zoom(1.25));
$("#zoom-out").addEventListener("click", () => board.zoom(1 / 1.25));
$("#zoom-fit").addEventListener("click", () => board.fit());
$("#first").addEventListener("click", () => go(0));
$("#prev").addEventListener("click", () => go(replay.step - 1));
$("#next").addEventListener("click", () => go(replay.step + 1));
$("#last").addEventListener("click", () => go(replay.steps));
$("#step-slider").addEventListener("input", () => go(Number($("#step-slider").value)));
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
  if (ev.key === "ArrowLeft") go(replay.step - 1);
  if (ev.key === "ArrowRight") go(replay.step + 1);
});

function showMessage(text) {
  const node = $("#message");
  node.textContent = text;
  node.hidden = !text;
}

// A record that stops replaying (HF5) is shown to its last good step, and says where it fails.
function brokenNotice(broken) {
  if (!broken) return "";
  const orders = Object.entries(broken.orders || {}).map(([s, o]) => `${s}: ${o}`).join(", ");
  return `This record replays to step ${broken.step} only: step ${broken.step} (${orders}) ` +
    `fails under this program's rules (${broken.reason}).`;
}

async function go(step) {
  const k = Math.max(0, Math.min(step, replay.steps || step));
  const seq = ++replay.loading;
  let data;
  try {
    data = await getJSON(`/api/matches/${encodeURIComponent(matchId)}/replay?step=${k}`);
  } catch (err) {
    if (seq === replay.loading) showMessage(err.message);
    return;
  }
  if (seq !== replay.loading) return; // a later step was asked for meanwhile
  showMessage(brokenNotice(data.broken));
  replay.steps = data.steps;
  replay.step = data.step;
  const view = data.view || {};
  if (!replay.seats.length) {
    replay.seats = (data.scene.figures || []).map((f) => f.seat);
    if (view.ruleset) $("#title").textContent = `Replay: ${view.ruleset} match ${matchId}`;
    // The badges' meanings (glossary.js): the step is drawn again once they come.
    if (view.ruleset) loadGlossary(view.ruleset).then((g) => {
      board.setStates(g.states);
      go(replay.step);
    });
  }
  const slider = $("#step-slider");
  slider.max = String(data.steps);
  slider.value = String(data.step);
  $("#step-label").textContent = `Step ${data.step} of ${data.steps}`;
  $("#first").disabled = $("#prev").disabled = data.step <= 0;
  $("#last").disabled = $("#next").disabled = data.step >= data.steps;
  board.render(data.scene, replay.seats);
  $("#caption").textContent = data.scene.caption || "";
  renderPanels($("#panels"), data.scene.panels, replay.seats);

  const orders = $("#orders");
  orders.replaceChildren();
  const entries = Object.entries(data.orders || {});
  for (const [seat, order] of entries) {
    const tr = orders.insertRow();
    tr.dataset.seat = seat;
    const th = document.createElement("th");
    th.textContent = seat;
    tr.appendChild(th);
    tr.insertCell().textContent = order;
  }
  if (!entries.length) orders.insertRow().insertCell().textContent = data.step === 0 ? "the start" : "none";

  const events = $("#events");
  events.replaceChildren();
  for (const ev of data.events || []) {
    const li = document.createElement("li");
    li.dataset.type = ev.type || "";
    li.textContent = ev.text || JSON.stringify(ev);
    events.appendChild(li);
  }

  const out = $("#outcome");
  if (view.outcome && data.step === data.steps) {
    out.replaceChildren();
    const h = document.createElement("h2");
    const w = view.outcome.winners || [];
    h.textContent = w.length ? `Won by ${w.join(", ")}` : "A draw";
    const p = document.createElement("p");
    p.textContent = view.outcome.summary;
    out.append(h, p);
    if (view.seed !== undefined) {
      const s = document.createElement("p");
      s.textContent = `Seed ${view.seed}, nonce ${view.nonce}: check with gladiator verify`;
      out.appendChild(s);
    }
    out.hidden = false;
  } else {
    out.hidden = true;
  }
  document.body.dataset.step = String(data.step);
}

if (matchId) go(0);
else showMessage("No match named in the address.");
