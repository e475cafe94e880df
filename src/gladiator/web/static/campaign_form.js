// The lobby's "New campaign" form: four lanistas (you and three bots by default), each a human
// or a bot, the number of munera, an optional seed and the campaign options (stables rolled or
// bought, wager payout, goal, appearance fee, custom armour, choice of styles) and, for play by
// correspondence, a deadline per decision and each human lanista's e-mail for his fights'
// notices (CP8); creating it shows each human lanista's secret link to the campaign page.
//
// DOM for tests: #campaign-lanistas tr[data-lanista="i"] (input.lanista-name, select.lanista-kind,
// input.lanista-email), #campaign-deadline (select: "" off, or seconds),
// #campaign-munera, #campaign-seed, #campaign-options (#campaign-stables, #campaign-payout,
// #campaign-goal, #campaign-fee, #campaign-armour, #campaign-styles), #create-campaign, #campaign-error,
// #campaign-created a[data-lanista] (links).

import { $, h } from "./dom.js";
import { postJSON } from "./net.js";

const DEFAULTS = [["You", "human"], ["Bot Marcus", "bot"], ["Bot Gaius", "bot"], ["Bot Lucius", "bot"]];

function drawLanistas() {
  const table = $("#campaign-lanistas");
  table.replaceChildren(h("tr", {}, h("th", {}, "Lanista"), h("th", {}, "Name"), h("th", {}, "Played by"),
    h("th", {}, "E-mail for notices (correspondence, optional)")));
  DEFAULTS.forEach(([name, kind], i) => {
    const n = i + 1;
    const select = h("select", { class: "lanista-kind", "aria-label": `lanista ${n} played by` },
      h("option", { value: "human" }, "human"), h("option", { value: "bot" }, "bot"));
    select.value = kind;
    const email = h("input", { class: "lanista-email", type: "email", maxlength: 254, autocomplete: "off",
      "aria-label": `lanista ${n} e-mail for notices` });
    const showEmail = () => { email.hidden = select.value !== "human"; };
    select.addEventListener("change", showEmail);
    showEmail();
    table.appendChild(h("tr", { "data-lanista": n }, h("td", {}, `${n}`),
      h("td", {}, h("input", { class: "lanista-name", value: name, maxlength: 40, "aria-label": `lanista ${n} name` })),
      h("td", {}, select), h("td", {}, email)));
  });
}

async function create(ev) {
  ev.preventDefault();
  const error = $("#campaign-error");
  error.hidden = true;
  const lanistas = [...document.querySelectorAll("#campaign-lanistas tr[data-lanista]")].map((row) => {
    const lanista = {
      name: row.querySelector(".lanista-name").value.trim() || `Lanista ${row.dataset.lanista}`,
      kind: row.querySelector(".lanista-kind").value,
    };
    const email = row.querySelector(".lanista-email").value.trim();
    if (email && lanista.kind === "human") lanista.email = email;
    return lanista;
  });
  const body = {
    name: $("#campaign-name-input").value.trim() || "Campaign",
    lanistas,
    options: {
      munera: Number($("#campaign-munera").value) || 10,
      stables: $("#campaign-stables").value,
      wager_payout: $("#campaign-payout").value,
      goal: $("#campaign-goal").value,
      appearance_fee: Number($("#campaign-fee").value) || 0,
      custom_armour: $("#campaign-armour").checked,
      choose_style: $("#campaign-styles").checked,
    },
  };
  const seed = $("#campaign-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  const deadline = $("#campaign-deadline").value;
  if (deadline) body.deadline = { seconds: Number(deadline) };
  try {
    const made = await postJSON("/api/campaigns", body);
    const box = $("#campaign-created");
    box.replaceChildren(h("h3", {}, "Campaign created"));
    const list = h("ul", {});
    for (const [lid, lan] of Object.entries(made.lanistas)) {
      if (lan.link) list.appendChild(h("li", {}, `${lan.name}: `, h("a", { href: lan.link, "data-lanista": lid }, "open your stable (keep this link secret)")));
    }
    list.appendChild(h("li", {}, "Everyone else: ", h("a", { href: made.link, class: "watch" }, "watch the campaign")));
    box.appendChild(list);
    box.hidden = false;
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
}

drawLanistas();
$("#campaign-form").addEventListener("submit", create);
