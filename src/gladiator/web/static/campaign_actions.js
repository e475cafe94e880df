// The campaign page's order forms, one campaign step each (docs/web.md, Campaigns): which are
// shown for the lanista now, what their lists offer (from the view and its `rules`, never a
// copied table), and the step each form sends. The server checks every step as the CLI does and
// answers a refusal with one line, shown in #action-error.

import { lanistaName, sideText } from "./campaign_names.js";
import { $, fill, h } from "./dom.js";

const BUY_SLOTS = 6;

export function mustBuy(view, you) {
  return view.phase === "between" && view.munus === 0 && view.options.stables === "bought"
    && !view.gladiators.some((g) => g.lanista === you.id);
}

const hasMen = (view, bout, lid, side) => bout.sides[side].gladiators.some((g) => (view.gladiators.find((x) => x.id === g) || {}).lanista === lid);

function armourCost(rules, pieces) {
  const { costs, coverages } = rules.armour;
  let total = 0;
  for (const p of pieces) {
    if (p === "-") continue;
    const cover = p.length > 1 ? Number(p.slice(1)) : coverages[coverages.length - 1];
    total += costs[p[0]][coverages.indexOf(cover)];
  }
  return total;
}

function drawBuy(view) {
  const set = $("#buy-styles");
  if (set.querySelectorAll("select").length !== BUY_SLOTS) {
    const styles = view.rules.styles.map((st) => [st.style, `${st.name} (${st.cost})`]);
    set.replaceChildren(set.querySelector("legend"), ...Array.from({ length: BUY_SLOTS }, (_, i) => {
      const select = h("select", { class: "buy-style", "aria-label": `man ${i + 1} bought as` });
      fill(select, [["", "none"], ...styles]);
      return select;
    }));
    set.addEventListener("change", () => drawBuyTotal(view.rules));
  }
  drawBuyTotal(view.rules);
}

function drawBuyTotal(rules) {
  const chosen = [...document.querySelectorAll("#buy-styles select")].map((x) => x.value).filter(Boolean);
  const cost = chosen.reduce((n, key) => n + rules.styles.find((st) => st.style === key).cost, 0);
  $("#buy-total").textContent = `${chosen.length} men, ${cost} sesterces`;
}

function drawArmourPieces(rules) {
  const set = $("#armour-pieces");
  if (set.querySelectorAll("select").length) return;
  const { areas, coverages } = rules.armour;
  const full = coverages[coverages.length - 1];
  const pieces = [["-", "none"]];
  for (const letter of Object.keys(rules.armour.costs)) {
    for (const c of coverages) pieces.push([c === full ? letter : `${letter}${c}`, `${letter}, coverage ${c}`]);
  }
  set.replaceChildren(set.querySelector("legend"), ...areas.map((area) => {
    const select = h("select", { class: "armour-piece", "data-area": area });
    fill(select, pieces);
    return h("label", { class: "field" }, area, select);
  }));
  set.addEventListener("change", () => {
    $("#armour-cost").textContent = `costs ${armourCost(rules, armourPieces())} sesterces`;
  });
}

const armourPieces = () => [...document.querySelectorAll("#armour-pieces select")].map((x) => x.value);

// Each form shown or hidden, and its lists filled, for the lanista `you` in this view.
export function drawActions(view, you) {
  const munus = view.phase === "munus";
  const between = view.phase === "between";
  const open = munus && !you.ready;
  const scheduled = view.bouts.filter((b) => b.status === "scheduled");
  const mine = scheduled.filter((b) => b.sides.some((side) => side.lanista === you.id) || b.sides.some((_, i) => hasMen(view, b, you.id, i)));
  const alive = view.gladiators.filter((g) => g.lanista === you.id && g.status === "alive");
  const buying = mustBuy(view, you);

  $("#buy-form").hidden = !buying;
  if (buying) drawBuy(view);
  $("#ready-form").hidden = buying;

  // §37.4: odds he may offer, or raise; not where the other lanista has offered them first
  const oddsBouts = scheduled.filter(
    (b) =>
      b.sides.some((s) => s.lanista === you.id) &&
      b.sides.some((s) => s.lanista && s.lanista !== you.id) &&
      !(b.wager && b.wager.offerer && b.wager.offerer !== you.id),
  );
  $("#odds-form").hidden = !open || !oddsBouts.length;
  fill($("#odds-bout"), oddsBouts.map((b) => [b.id, `${b.id} (${b.wager ? b.wager.odds : 1}-1 now)`]));

  $("#side-bet-form").hidden = !open || !scheduled.length;
  fill($("#side-bout"), scheduled.map((b) => [b.id, `${b.id}: ${sideText(view, b, 0)} v ${sideText(view, b, 1)}`]));
  const betBout = scheduled.find((b) => b.id === $("#side-bout").value);
  const sides = betBout ? [0, 1].filter((i) => !hasMen(view, betBout, you.id, 1 - i)) : [];
  fill($("#side-backs"), sides.map((i) => [String(i), sideText(view, betBout, i)]));
  const others = view.lanistas.filter((l) => l.id !== you.id && !l.out);
  fill($("#side-to"), [["", "anyone"], ...others.map((l) => [l.id, l.name])]);

  const uniques = mine.filter((b) => b.type === "unique" && b.sides[0].lanista === you.id);
  $("#unique-form").hidden = !open || !uniques.length;
  fill($("#unique-bout"), uniques.map((b) => [b.id, `${b.id}: ${b.unique ? b.unique.name : "Unique Match"}`]));

  const custom = new Set(view.rules.styles.filter((st) => st.custom_armour).map((st) => st.style));
  const armourable = mine.flatMap((b) => b.sides.flatMap((side) => side.gladiators)
    .filter((g) => alive.some((x) => x.id === g) && custom.has(b.styles[g]) && !(g in b.armour)).map((g) => [b, g]));
  $("#armour-form").hidden = !open || !view.options.custom_armour || !armourable.length;
  if (!$("#armour-form").hidden) drawArmourPieces(view.rules);
  fill($("#armour-man"), armourable.map(([b, g]) => [`${b.id}/${g}`, `${alive.find((x) => x.id === g).name} (${b.styles[g]}, bout ${b.id})`]));

  const botBouts = mine.filter((b) => !b.bot_fights.includes(you.id));
  $("#bot-fight-form").hidden = !open || !botBouts.length;
  fill($("#bot-fight-bout"), botBouts.map((b) => [b.id, `${b.id} (${b.type})`]));

  const xp = view.rules.xp;
  const cheapest = Math.min(xp.talent, xp.tr, xp.st, xp.ag, xp.cn, xp.w);
  const spenders = alive.filter((g) => g.xp >= cheapest);
  $("#xp-form").hidden = !between || !spenders.length;
  fill($("#xp-gladiator"), spenders.map((g) => [g.id, `${g.name} (${g.xp} XP)`]));
  const what = $("#xp-what").value;
  $("#xp-extra").disabled = what !== "talent";
  $("#xp-cost").textContent = what === "talent" ? `${xp.talent + xp.talent_step * Number($("#xp-extra").value || 0)} XP` : `${xp[what]} XP`;

  $("#styles-form").hidden = !view.options.choose_style || !alive.length;
  fill($("#styles-man"), alive.map((g) => [g.id, g.name]));
  for (const select of document.querySelectorAll(".style-choice")) fill(select, [["", "none"], ...view.rules.styles.map((st) => [st.style, `${st.name} (${st.category})`])]);

  const lots = view.lots.filter((l) => l.seller !== you.id);
  $("#bid-form").hidden = !between || !lots.length;
  fill($("#bid-lot"), lots.map((l) => [l.gladiator, `${(view.gladiators.find((g) => g.id === l.gladiator) || { name: l.gladiator }).name}${l.seller ? ` (sold by ${lanistaName(view, l.seller)})` : ""}${l.your_bid ? ` (your bid ${l.your_bid})` : ""}`]));

  $("#stable-form").hidden = !between || !alive.length || buying;
  fill($("#stable-man"), alive.map((g) => [g.id, g.name]));
}

// Each form's step, built from what it holds when submitted.
export function bindActions(send, view) {
  const on = (form, make) => $(form).addEventListener("submit", (ev) => {
    ev.preventDefault();
    const step = make(ev);
    if (step) send(step);
  });
  on("#buy-form", () => ({ kind: "buy_stable", styles: [...document.querySelectorAll("#buy-styles select")].map((x) => x.value).filter(Boolean) }));
  on("#ready-form", () => {
    if (view().phase !== "between") return { kind: "ready" };
    const entries = [...document.querySelectorAll("#entries input[data-gladiator]")].filter((i) => i.checked).map((i) => i.dataset.gladiator);
    return { kind: "ready", entries };
  });
  on("#odds-form", () => ({ kind: "offer_odds", bout: $("#odds-bout").value, odds: Number($("#odds-k").value) }));
  on("#side-bet-form", () => {
    const step = { kind: "offer_side_bet", bout: $("#side-bout").value, backs: Number($("#side-backs").value),
      stake: Number($("#side-stake").value), takes: Number($("#side-takes").value) };
    if ($("#side-to").value) step.to = $("#side-to").value;
    return step;
  });
  on("#unique-form", () => ({ kind: "set_unique", bout: $("#unique-bout").value, match: {
    name: $("#unique-name").value, men: Number($("#unique-men").value), opponents: Number($("#unique-opponents").value),
    beasts: Number($("#unique-beasts").value), sine_missione: $("#unique-death").checked } }));
  on("#armour-form", () => {
    const [bout, gladiator] = $("#armour-man").value.split("/");
    return { kind: "buy_armour", bout, gladiator, armour: armourPieces(), shield: $("#armour-shield").value };
  });
  on("#bot-fight-form", () => ({ kind: "bot_fight", bout: $("#bot-fight-bout").value }));
  on("#xp-form", () => {
    const item = { what: $("#xp-what").value };
    if (item.what === "talent") item.extra = Number($("#xp-extra").value || 0);
    return { kind: "spend_xp", gladiator: $("#xp-gladiator").value, purchases: [item] };
  });
  on("#styles-form", () => ({ kind: "prefer_styles", gladiator: $("#styles-man").value,
    styles: [...document.querySelectorAll(".style-choice")].map((x) => x.value).filter(Boolean) }));
  on("#bid-form", () => ({ kind: "bid", gladiator: $("#bid-lot").value, amount: Number($("#bid-amount").value) }));
  on("#stable-form", (ev) => ({ kind: ev.submitter ? ev.submitter.dataset.kind : "sell", gladiator: $("#stable-man").value }));
  for (const sel of ["#xp-what", "#xp-extra", "#side-bout"]) $(sel).addEventListener("change", () => drawActions(view(), view().lanistas.find((l) => l.id === view().you)));
}
