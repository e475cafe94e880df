// The campaign page (/campaign/{id}, a human lanista's link carries #t=TOKEN): this munus's
// bouts with links to the arena match of the lanista's own fights (all his men in a fight on one
// page), the side bets, the league table and the plot of sesterces and men per munus, one stable
// per lanista with each man's career and the ledger, his order forms (campaign_actions.js), and
// the recent steps; it polls the view so a fight's result shows up.
//
// DOM for tests: #campaign-status, section.stable[data-lanista] with .purse and
// tr[data-gladiator] (td.status, td.xp, td.record) and details.career[data-gladiator],
// #bouts tr[data-bout] (td.status, a.play[data-match][data-seats] for your own fight),
// #side-bet-list tr[data-bet] (td.status, button.take, button.withdraw), #league
// tr[data-lanista] (td.purse), #plot polyline[data-lanista], #ready-form (#entries
// input[data-gladiator], #ready), the forms of campaign_actions.js, #action-error,
// #action-done, #events li; body[data-seq] is the step the page shows.

import { durationText, leftText } from "./deadline.js";
import { getJSON } from "./net.js";
import { $, h, show } from "./dom.js";
import { bindActions, drawActions, mustBuy } from "./campaign_actions.js";
import { drawPlot } from "./campaign_plot.js";
import { drawBouts, drawEvents, drawLeague, drawSideBets, drawStables } from "./campaign_tables.js";

const id = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.hash.slice(1)).get("t");
const POLL_MS = 1500;
let view = null;
let drawn = "";
let entriesDrawn = "";

function authed(options = {}) {
  const headers = { ...(options.headers || {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  return { ...options, headers };
}

async function refresh() {
  try {
    const fresh = await getJSON(`/api/campaigns/${encodeURIComponent(id)}`, authed());
    show("#load-error", "");
    const key = JSON.stringify(fresh);
    if (key === drawn) return; // nothing moved: leave the page (and the reader's focus) alone
    drawn = key;
    view = fresh;
    draw();
  } catch (err) {
    show("#load-error", `The campaign could not be read: ${err.message}`);
  }
}

const name = (lid) => (view.lanistas.find((l) => l.id === lid) || { name: "the house" }).name;

function draw() {
  $("#campaign-name").textContent = view.name;
  document.title = `GLADIATOR — ${view.name}`;
  document.body.dataset.seq = `${view.seq}`;
  const winner = view.winner ? ` — won by ${name(view.winner)}` : "";
  const waiting = view.waiting.length ? ` — waiting for ${view.waiting.map(name).join(", ")}` : "";
  $("#campaign-status").textContent = `munus ${view.munus} of ${view.munera}, ${view.phase}${winner}${waiting}`;
  drawDeadline();
  $("#munus-number").textContent = view.munus ? `${view.munus}` : "(none yet)";
  drawBouts(view, $("#bouts"), token);
  drawSideBets(view, $("#side-bets"), send);
  drawLeague(view, $("#league"));
  drawPlot(view, $("#plot"), $("#plot-legend"));
  drawStables(view, $("#stables"));
  drawEvents(view, $("#events"));
  drawYou();
}

// CP8: a correspondence campaign's deadline, and how long those it waits for have to be ready.
function drawDeadline() {
  const node = $("#campaign-deadline-note");
  const clock = view.deadline;
  node.hidden = !clock || view.phase === "over";
  if (!clock) return;
  const notReady = view.waiting.filter((lid) => !(view.lanistas.find((l) => l.id === lid) || {}).ready);
  node.textContent = `Correspondence: ${durationText(clock.seconds)} for each decision of a fight, then a stand-in bot plays it.`
    + (notReady.length ? ` ${notReady.map(name).join(", ")}: ${leftText(clock)} to say ready, then the campaign says it for them.` : "");
}

function drawYou() {
  const you = view.lanistas.find((l) => l.id === view.you);
  $("#actions").hidden = !you || view.phase === "over";
  if (!you) return;
  $("#you-name").textContent = you.name;
  const mine = view.gladiators.filter((g) => g.lanista === you.id && g.status === "alive");
  const between = view.phase === "between";
  $("#waiting-note").textContent = mustBuy(view, you)
    ? "Buy your stable first: four to six men at the Gladiator chart's prices (§37.2.1)."
    : you.ready
      ? "You are ready: the others, or your fight in the arena, come next."
      : between
        ? "Between munera: spend XP, bid, sell or retire a man, then enter your men and say you are ready."
        : "In the munus: offer odds and side bets, set up a Unique Match, buy armour, then say you are ready and the games begin.";
  const key = between ? mine.map((g) => g.id).join(",") : "";
  if (key !== entriesDrawn) {
    entriesDrawn = key;
    const set = $("#entries");
    set.replaceChildren(h("legend", {}, "Men entered in the next munus"), ...mine.map((g) => h("label", { class: "check" },
      h("input", { type: "checkbox", "data-gladiator": g.id, checked: true, "aria-label": `enter ${g.name}` }), ` ${g.name}`)));
  }
  $("#entries").hidden = !between;
  $("#ready").disabled = you.ready;
  drawActions(view, you);
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
    show("#action-done", `Done: ${step.kind.replaceAll("_", " ")}.`);
  } catch (err) {
    show("#action-error", err.message);
  }
  await refresh();
}

bindActions(send, () => view);
refresh();
setInterval(refresh, POLL_MS);
