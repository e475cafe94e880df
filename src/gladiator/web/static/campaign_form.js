// The lobby's "New campaign" form: four lanistas (you and three bots by default), each a human
// or a bot, the number of munera and an optional seed; creating it shows each human lanista's
// secret link to the campaign page.
//
// DOM for tests: #campaign-lanistas tr[data-lanista="i"] (input.lanista-name, select.lanista-kind),
// #campaign-munera, #campaign-seed, #create-campaign, #campaign-error,
// #campaign-created a[data-lanista] (links).

import { postJSON } from "./net.js";

const $ = (sel) => document.querySelector(sel);
const DEFAULTS = [["You", "human"], ["Bot Marcus", "bot"], ["Bot Gaius", "bot"], ["Bot Lucius", "bot"]];

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

function drawLanistas() {
  const table = $("#campaign-lanistas");
  table.replaceChildren(h("tr", {}, h("th", {}, "Lanista"), h("th", {}, "Name"), h("th", {}, "Played by")));
  DEFAULTS.forEach(([name, kind], i) => {
    const n = i + 1;
    const select = h("select", { class: "lanista-kind", "aria-label": `lanista ${n} played by` },
      h("option", { value: "human" }, "human"), h("option", { value: "bot" }, "bot"));
    select.value = kind;
    table.appendChild(h("tr", { "data-lanista": n }, h("td", {}, `${n}`),
      h("td", {}, h("input", { class: "lanista-name", value: name, maxlength: 40, "aria-label": `lanista ${n} name` })),
      h("td", {}, select)));
  });
}

async function create(ev) {
  ev.preventDefault();
  const error = $("#campaign-error");
  error.hidden = true;
  const lanistas = [...document.querySelectorAll("#campaign-lanistas tr[data-lanista]")].map((row) => ({
    name: row.querySelector(".lanista-name").value.trim() || `Lanista ${row.dataset.lanista}`,
    kind: row.querySelector(".lanista-kind").value,
  }));
  const body = {
    name: $("#campaign-name-input").value.trim() || "Campaign",
    lanistas,
    options: { munera: Number($("#campaign-munera").value) || 10 },
  };
  const seed = $("#campaign-seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
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
