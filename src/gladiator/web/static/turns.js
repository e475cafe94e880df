// The lobby's "My matches" (the seats this browser holds, my_matches.js) with whose move each
// waits for: GET /api/turns?ids=… on load and every 30 s. A row where a seat held here is
// waited for shows a "Your move" badge (and the time left to its deadline), its rejoin link for
// that seat is marked, and the page title counts those matches: "(2) GLADIATOR — lobby".
// When a poll finds a new one while the page is hidden, a notification says so (deadline.js).
//
// DOM for tests: #my-matches tr[data-match] (data-your-move="SEAT SEAT" when waited for) with
// .your-move (the badge), .turn (status, or "waiting for SEAT · TIME left"), a.rejoin[data-seat]
// (class "your-move-link" where that seat is waited for), a.replay, button.forget.

import { h } from "./dom.js";
import { leftText, notifyMove, waitingText } from "./deadline.js";
import { forgetMatch, myMatches } from "./my_matches.js";
import { getJSON } from "./net.js";

const POLL_MS = 30000;
const MAX_IDS = 50; // GET /api/turns answers at most this many at once
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const TITLE = document.title.replace(/^\(\d+\) /, "");

const state = {
  turns: new Map(), // match id -> the /api/turns item
  mine: null, // ids of the matches waiting for this browser at the last poll (null: none yet)
  timer: null,
};

// Poll now and every 30 s from here on.
export function startMyMatches() {
  clearInterval(state.timer);
  state.timer = setInterval(refreshMyMatches, POLL_MS);
  return refreshMyMatches();
}

export async function refreshMyMatches() {
  const ids = myMatches().map((m) => m.id).filter((id) => ID.test(id)).slice(0, MAX_IDS);
  if (ids.length) {
    try {
      const items = await getJSON(`/api/turns?ids=${ids.join(",")}`);
      state.turns = new Map((Array.isArray(items) ? items : []).map((t) => [t.id, t]));
    } catch {
      // the last answer stays; the rejoin links work without it
    }
  } else {
    state.turns = new Map();
  }
  draw();
}

// The seats of `m` (a remembered match) that its turn item says are waited for.
function waitedSeats(m) {
  const t = state.turns.get(m.id);
  if (!t || t.status !== "running") return [];
  return (t.waiting_for || []).filter((seat) => seat in m.seats);
}

function draw() {
  const table = document.querySelector("#my-matches");
  if (!table) return;
  table.replaceChildren();
  const now = Date.now() / 1000;
  const waiting = [];
  for (const m of myMatches()) {
    const t = state.turns.get(m.id);
    const mine = waitedSeats(m);
    if (mine.length) waiting.push(m);
    const links = h("td", { class: "links" });
    for (const [seat, link] of Object.entries(m.seats)) {
      const yours = mine.includes(seat);
      const label = yours ? `Rejoin as ${seat} (your move)` : `Rejoin as ${seat}`;
      links.appendChild(h("a", { class: yours ? "rejoin your-move-link" : "rejoin", "data-seat": seat, href: link }, label));
      links.append(" ");
    }
    if (t && t.status === "finished") links.appendChild(h("a", { class: "replay", href: `/replay/${encodeURIComponent(m.id)}` }, "Replay"));
    const forget = h("button", { type: "button", class: "forget", "aria-label": `forget match ${m.id}` }, "forget");
    forget.addEventListener("click", () => {
      forgetMatch(m.id);
      draw();
    });
    let turn = t ? (t.status === "running" ? waitingText(t, now) || t.status : t.status) : "";
    let badge = null;
    if (mine.length) {
      const left = t.deadline ? leftText(t.deadline, now) : "";
      badge = h("span", { class: "your-move" }, left ? `Your move · ${left}` : "Your move");
      turn = "";
    }
    table.appendChild(
      h("tr", { "data-match": m.id, "data-your-move": mine.length ? mine.join(" ") : null },
        h("td", {}, h("code", {}, m.id)),
        h("td", {}, m.ruleset || ""),
        h("td", { class: "turn" }, badge, turn),
        links,
        h("td", {}, forget)),
    );
  }
  if (!table.rows.length) table.appendChild(h("tr", {}, h("td", { class: "empty" }, "none yet: the seats you create or open are kept in this browser")));
  document.title = waiting.length ? `(${waiting.length}) ${TITLE}` : TITLE;
  announce(waiting, now);
}

// A notification for the matches that newly wait for this browser (none at the first poll).
function announce(waiting, now) {
  const ids = new Set(waiting.map((m) => m.id));
  const fresh = state.mine ? waiting.filter((m) => !state.mine.has(m.id)) : [];
  state.mine = ids;
  if (!fresh.length) return;
  const lines = fresh.map((m) => {
    const t = state.turns.get(m.id);
    const left = t.deadline ? `, ${leftText(t.deadline, now)}` : "";
    return `Match ${m.id} (${m.ruleset || t.ruleset}): ${waitedSeats(m).join(", ")}${left}`;
  });
  notifyMove(lines.join("\n"), "gladiator-lobby");
}
