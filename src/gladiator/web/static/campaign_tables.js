// The campaign page's tables: this munus's bouts and side bets, the league table, each stable
// with its men's careers, and the recent steps. Pure drawing from the view (campaign.js).

import { lanistaName, manName, sideText } from "./campaign_names.js";
import { h } from "./dom.js";

const th = (text) => h("th", { scope: "col" }, text);

function fightLinks(view, bout, token) {
  const cell = h("td", { class: "fight-links" });
  for (const f of bout.fights) {
    const mine = view.you ? Object.entries(f.seats).filter(([, lid]) => lid === view.you).map(([seat]) => seat) : [];
    if (mine.length && !f.over) {
      // All his men in the fight on one page: his token scoped to each of their seats.
      const hash = mine.length === 1 ? `t=${token}` : mine.map((seat) => `t=${token}:${seat}`).join("&");
      const label = mine.length === 1 ? `Play your fight (${mine[0]})` : `Play your men's fight (${mine.join(", ")})`;
      cell.appendChild(h("a", { class: "play", "data-match": f.match, "data-seats": mine.join(" "), href: `/match/${f.match}#${hash}` }, label));
    } else if (f.over) {
      cell.appendChild(h("a", { class: "replay", href: `/replay/${f.match}` }, "replay"));
    } else {
      cell.appendChild(document.createTextNode("in the arena"));
    }
    cell.appendChild(document.createTextNode(" "));
  }
  if (bout.bot_fights.length) cell.appendChild(h("span", { class: "hint" }, `a bot fights for ${bout.bot_fights.map((l) => lanistaName(view, l)).join(", ")}`));
  return cell;
}

export function drawBouts(view, table, token) {
  table.replaceChildren(h("tr", {}, ...["Bout", "Type", "Sides", "Wager", "Status", "Arena"].map(th)));
  if (!view.bouts.length) table.appendChild(h("tr", {}, h("td", { class: "empty", colspan: 6 }, "no bouts")));
  for (const b of view.bouts) {
    const kind = b.unique ? `unique: ${b.unique.name}` : b.type;
    const wager = b.wager ? `${b.wager.odds}-1, ${Object.values(b.wager.stakes).join(" / ")}` : "";
    const status = b.status === "settled" ? `settled: ${b.outcome}` : "scheduled";
    table.appendChild(h("tr", { "data-bout": b.id }, h("td", {}, b.id), h("td", {}, `${kind}${b.sine_missione ? " (sine missione)" : ""}`),
      h("td", {}, `${sideText(view, b, 0)} v ${sideText(view, b, 1)}`), h("td", {}, wager), h("td", { class: "status" }, status),
      fightLinks(view, b, token)));
  }
}

// §37.4.1: every side bet of the munus, with Take / Withdraw for the lanista who may.
export function drawSideBets(view, box, act) {
  const bets = view.bouts.flatMap((b) => b.side_bets.map((bet) => ({ bout: b, bet })));
  if (!bets.length) {
    box.replaceChildren();
    return;
  }
  const table = h("table", { class: "matches", id: "side-bet-list", tabindex: "0" }, h("caption", {}, "Side bets (§37.4.1)"),
    h("tr", {}, ...["Bet", "Offered by", "Backing", "Stakes", "To", "Status", "Answer"].map(th)));
  for (const { bout, bet } of bets) {
    const buttons = h("td", {});
    const open = bet.status === "offered" && view.phase === "munus";
    const mine = (side) => bout.sides[side].gladiators.some((g) => (view.gladiators.find((x) => x.id === g) || {}).lanista === view.you);
    if (open && view.you && view.you !== bet.offerer && (!bet.to || bet.to === view.you) && !mine(bet.backs)) {
      buttons.appendChild(h("button", { type: "button", class: "take", "data-bet": bet.id }, "Take"));
    }
    if (open && view.you === bet.offerer) buttons.appendChild(h("button", { type: "button", class: "withdraw", "data-bet": bet.id }, "Withdraw"));
    const taker = bet.taker ? ` (taken by ${lanistaName(view, bet.taker)})` : "";
    table.appendChild(h("tr", { "data-bet": bet.id }, h("td", {}, bet.id), h("td", {}, lanistaName(view, bet.offerer)),
      h("td", {}, sideText(view, bout, bet.backs)), h("td", {}, `${bet.stake} against ${bet.takes}`),
      h("td", {}, bet.to ? lanistaName(view, bet.to) : "anyone"), h("td", { class: "status" }, `${bet.status}${taker}`), buttons));
  }
  box.replaceChildren(table);
  for (const b of box.querySelectorAll("button.take")) b.addEventListener("click", () => act({ kind: "take_side_bet", bet: b.dataset.bet }));
  for (const b of box.querySelectorAll("button.withdraw")) b.addEventListener("click", () => act({ kind: "withdraw_side_bet", bet: b.dataset.bet }));
}

// §37.7: the richest leads; equal money goes to more living men, then more victories (L13).
export function standings(view) {
  return view.lanistas.map((lan) => {
    const men = view.gladiators.filter((g) => g.lanista === lan.id);
    return {
      lan,
      living: men.filter((g) => g.status === "alive").length,
      victories: men.reduce((n, g) => n + g.record.victories, 0),
      dead: men.filter((g) => g.status === "dead").length,
      free: men.filter((g) => g.status === "free").length,
    };
  }).sort((a, b) => b.lan.purse - a.lan.purse || b.living - a.living || b.victories - a.victories);
}

export function drawLeague(view, table) {
  table.replaceChildren(h("tr", {}, ...["#", "Lanista", "Sesterces", "Living men", "Victories", "Dead", "Freed", "Standing"].map(th)));
  standings(view).forEach((row, i) => {
    const note = view.winner === row.lan.id ? "winner" : row.lan.out ? `out: ${row.lan.out}` : "";
    table.appendChild(h("tr", { "data-lanista": row.lan.id }, h("td", {}, `${i + 1}`), h("td", {}, row.lan.name),
      h("td", { class: "purse" }, `${row.lan.purse}`), h("td", {}, `${row.living}`), h("td", {}, `${row.victories}`),
      h("td", {}, `${row.dead}`), h("td", {}, `${row.free}`), h("td", {}, note)));
  });
}

function career(g) {
  const rows = g.history.map((e) => h("li", {}, e.retired
    ? `munus ${e.munus}: retired`
    : `munus ${e.munus}, bout ${e.bout} (${e.type}): ${e.result}${e.xp !== undefined ? `, +${e.xp} XP` : ""}`
      + `${e.injuries && e.injuries.length ? `, injured ${e.injuries.join(", ")}` : ""}`
      + `${e.prestige ? `, PR ${e.prestige > 0 ? "+" : ""}${e.prestige}` : ""}`));
  const facts = [g.origin ? `origin ${g.origin}` : null, g.bought_as ? `bought as a ${g.bought_as}` : null,
    g.talents.length ? `talents ${g.talents.join(", ")}` : "no talents", g.preferences.length ? `prefers ${g.preferences.join(", ")}` : null];
  return h("details", { class: "career", "data-gladiator": g.id, "data-key": `career-${g.id}` }, h("summary", {}, `${g.name}: ${g.history.length} ${g.history.length === 1 ? "fight" : "fights"}`),
    h("p", {}, facts.filter(Boolean).join("; ")), rows.length ? h("ol", {}, ...rows) : h("p", { class: "hint" }, "no fight yet"));
}

export function drawStables(view, box) {
  // What the reader opened stays open across a redraw.
  const open = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.key));
  box.replaceChildren();
  for (const lan of view.lanistas) {
    const you = lan.id === view.you ? " (you)" : "";
    const card = h("section", { class: "card stable", "data-lanista": lan.id, "aria-label": `${lan.name}'s stable` },
      h("h2", {}, `${lan.name}${you} `, h("span", { class: "muted" }, lan.kind === "bot" ? "bot" : "human")),
      h("p", {}, "Purse: ", h("span", { class: "purse" }, `${lan.purse}`), " sesterces", lan.out ? ` — out: ${lan.out}` : "", lan.ready ? " — ready" : ""));
    // Focusable: on a phone the table scrolls sideways inside its card, by keyboard too.
    const table = h("table", { class: "matches", tabindex: "0", "aria-label": `${lan.name}'s gladiators` },
      h("tr", {}, ...["Name", "Status", "TR", "ST", "AG", "CN", "W", "CF", "XP", "PR", "Talents", "Record V-S-M / D"].map(th)));
    const men = view.gladiators.filter((x) => x.lanista === lan.id);
    for (const g of men) {
      const r = g.record;
      table.appendChild(h("tr", { "data-gladiator": g.id }, h("td", {}, g.name), h("td", { class: "status" }, g.status),
        ...["tr", "st", "ag", "cn", "w", "cf"].map((k) => h("td", {}, `${g[k]}`)), h("td", { class: "xp" }, `${g.xp}`),
        h("td", {}, `${g.prestige}`), h("td", {}, g.talents.join(", ")),
        h("td", { class: "record" }, `${r.victories}-${r.stans}-${r.missus} / ${r.defeats}`)));
    }
    card.appendChild(table);
    card.appendChild(h("div", { class: "careers" }, ...men.map(career)));
    card.appendChild(h("details", { "data-key": `ledger-${lan.id}` }, h("summary", {}, "Ledger"),
      h("ul", { class: "ledger" }, ...lan.ledger.map((e) => h("li", {}, `#${e.seq}: ${e.amount > 0 ? "+" : ""}${e.amount} ${e.memo}`)))));
    box.appendChild(card);
  }
  for (const d of box.querySelectorAll("details")) d.open = open.has(d.dataset.key);
}

export function drawEvents(view, list) {
  list.replaceChildren(...view.events.map((e) => {
    const bits = [e.kind, e.actor ? lanistaName(view, e.actor) : null, e.bout ? `bout ${e.bout}` : null, e.gladiator ? manName(view, e.gladiator) : null,
      e.bet ? `bet ${e.bet}` : null];
    return h("li", { value: e.seq }, bits.filter(Boolean).join(" — "));
  }));
}
