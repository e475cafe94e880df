// The arena page's side of correspondence play (docs/web.md, Correspondence play): whose move it
// is in the document title ("● Your move — …" while a seat of this page's tokens is waited for),
// the decision's deadline under the status line, a browser notification when it becomes this
// page's move while the page is hidden, and, for a link without a token, a form that has the
// server send a seat's link again to the address given for it.
//
// DOM for tests: #deadline (role timer: "Your move: 22 h 10 min left; then …" / "Blue has 22 h
// left; …"), #notify-me (asks for the permission), #notify-state, #lost-link (form) with
// #lost-seat (select), #lost-send and #lost-answer.

import { askNotifications, leftText, notificationsOffered, notifyMove, secondsLeft } from "./deadline.js";
import { getJSON, postJSON } from "./net.js";

const $ = (sel) => document.querySelector(sel);
const MARK = "● Your move — ";

const turn = {
  game: null,
  matchId: "",
  waited: null, // the seats of this page waited for at the last update (null: none seen yet)
};

// Called once the page has its players (arena.js `game`).
export function setupTurn(game, matchId) {
  turn.game = game;
  turn.matchId = matchId;
  $("#notify-me").addEventListener("click", async () => {
    await askNotifications();
    drawNotify();
  });
  setInterval(drawDeadline, 1000);
}

// A seat of this page that the current decision waits for and that has not given its order.
function waitedFor(player) {
  const v = player.view;
  if (!player.seat || !v || v.outcome || v === player.answered) return false;
  return (v.waiting_for || []).includes(player.seat) && !(v.submitted || []).includes(player.seat);
}

function shownView() {
  const g = turn.game;
  const p = g.shown || g.players.find((x) => x.view);
  return p ? p.view : null;
}

// Every change of a view or an acknowledgement: the title, the deadline, a notification.
export function updateTurn() {
  const g = turn.game;
  if (!g) return;
  const mine = g.players.filter(waitedFor);
  const base = document.title.startsWith(MARK) ? document.title.slice(MARK.length) : document.title;
  document.title = mine.length ? MARK + base : base;
  const seen = g.players.some((p) => p.view);
  if (seen) {
    const seats = new Set(mine.map((p) => p.seat));
    const fresh = turn.waited ? [...seats].filter((s) => !turn.waited.has(s)) : [];
    turn.waited = seats;
    if (fresh.length) notifyMove(noticeText(fresh), `gladiator-${turn.matchId}`);
  }
  drawDeadline();
  drawNotify();
}

function noticeText(seats) {
  const title = (turn.game.welcome && turn.game.welcome.title) || "GLADIATOR";
  const left = leftText((shownView() || {}).deadline);
  return `${title}, match ${turn.matchId}: you are ${seats.join(", ")}${left ? `; ${left}` : ""}.`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// "Your move: 22 h 10 min left; then …" for this page's seat, "Blue has 22 h left; then …" for
// another's; nothing in a live match or once it is over.
function drawDeadline() {
  const node = $("#deadline");
  const view = shownView();
  const deadline = view && view.deadline;
  if (!deadline || secondsLeft(deadline) === null || view.outcome) {
    node.textContent = "";
    node.hidden = true;
    return;
  }
  const bot = deadline.bot ? `the stand-in bot (${deadline.bot})` : "a stand-in bot";
  const then = (who, many) => {
    if (deadline.then !== "forfeit") return `then ${bot} plays this decision for ${who}`;
    return `then ${who} forfeit${many ? "" : "s"}`;
  };
  const left = leftText(deadline);
  const passed = secondsLeft(deadline) < 0.5;
  const mine = turn.game.players.some(waitedFor);
  let text;
  if (mine) {
    text = `Your move: ${left}; ${then("you", true)}`;
  } else {
    const own = new Set(turn.game.players.map((p) => p.seat).filter(Boolean));
    const others = (view.waiting_for || []).filter((s) => !own.has(s) && !(view.submitted || []).includes(s));
    if (!others.length) {
      node.hidden = true;
      return;
    }
    const who = others.join(" and ");
    const many = others.length > 1;
    const lead = passed ? `${capital(who)}: ${left}` : `${capital(who)} ${many ? "have" : "has"} ${left}`;
    text = `${lead}; ${then(who, many)}`;
  }
  if (node.textContent !== text) node.textContent = text;
  node.classList.toggle("mine", mine);
  node.hidden = false;
}

// The "Notify me" button while the page holds a seat of a match that goes on and the browser
// has not been asked yet; a line saying what was decided once it has.
function drawNotify() {
  const button = $("#notify-me");
  const state = $("#notify-state");
  const view = shownView();
  const seated = turn.game.players.some((p) => p.seat);
  if (!notificationsOffered() || !seated || !view || view.outcome) {
    button.hidden = true;
    state.hidden = true;
    return;
  }
  const permission = Notification.permission;
  button.hidden = permission !== "default";
  const said = {
    granted: "You will be notified when it is your move while this page is in the background.",
    denied: "Notifications are blocked for this site in the browser's settings.",
  }[permission];
  state.textContent = said || "";
  state.hidden = !said;
}

// -- a link without a token ------------------------------------------------------------------------
export async function lostLink(matchId) {
  const form = $("#lost-link");
  let item;
  try {
    [item] = await getJSON(`/api/turns?ids=${encodeURIComponent(matchId)}`);
  } catch {
    return; // not a match id this server could know
  }
  // A match that is over needs no seat link: its page and replay are public.
  if (!item || item.status !== "running") return;
  const humans = (item.seats || []).filter((s) => s.kind === "human");
  if (!humans.length) return;
  const select = $("#lost-seat");
  select.replaceChildren(
    ...humans.map((s) => {
      const option = document.createElement("option");
      option.value = s.seat;
      option.textContent = s.label && s.label !== s.seat ? `${s.seat} (${s.label})` : s.seat;
      return option;
    }),
  );
  const answer = $("#lost-answer");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("#lost-send");
    button.disabled = true;
    answer.classList.remove("bad");
    answer.textContent = "Asking the server…";
    try {
      const res = await postJSON(`/api/matches/${encodeURIComponent(matchId)}/resend`, { seat: select.value });
      answer.textContent = sentenceOf(res) || "The server took the request.";
    } catch (err) {
      answer.textContent = err.message;
      answer.classList.add("bad");
    } finally {
      button.disabled = false;
    }
  });
  form.hidden = false;
}

// The answer's sentence: its "message", or else its first text.
function sentenceOf(res) {
  if (!res || typeof res !== "object") return "";
  if (typeof res.message === "string") return res.message;
  return Object.values(res).find((v) => typeof v === "string" && v.includes(" ")) || "";
}
