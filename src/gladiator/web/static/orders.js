// Order entry generated from a decision's to_dict() (gladiator.core.decisions): choose, distribute,
// hex, arrange. The form only helps: whatever it sends, the server checks the order again.
//
// DOM (inside the container given): .prompt, #option-filter, #options with one
// button[data-option="TEXT"] per option, [data-slot="NAME"] number inputs with .minus/.plus
// buttons, #total, [data-hex-option="q,r"] buttons, #arrange li[data-item] with .up/.down,
// #order-text (the order in the text notation, always editable, never pre-filled), #submit,
// #order-check[data-checked="TEXT"] (what the server's parser makes of the typed order, or what is legal instead),
// #presets button[data-preset="last|balanced|attack|defence"] (distribute), #order-help (the
// legend of orders and badges).
//
// Typing: any spelling the ruleset's own parser reads is accepted (`ff(r)`, `A3:head D2:arms`):
// the form asks the server (hooks.check, POST /api/matches/{id}/check) and shows the canonical
// order or the reason and the legal orders; the text is sent as typed.

import { legend, meaningOf } from "./glossary.js";
import { serverCheck } from "./order_check.js";
import { amountsOf, hasAttackDefence, lastOrder, presets, rememberOrder } from "./presets.js";

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

// hooks: {submit(text), preview(option|null), select(hex|null), check(text) -> Promise of
// {ok, order} or {ok: false, error, reason, legal} (optional), glossary (optional, see
// glossary.js), memory (a key for "repeat last", optional)}
export function decisionForm(container, decision, hooks) {
  container.replaceChildren();
  const form = h("form", { class: `decision decision-${decision.kind}`, autocomplete: "off" });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (submit.disabled) return;
    // An empty distribute form is the empty allocation, "-" in every ruleset's notation.
    const text = orderText.value.trim() || (decision.kind === "distribute" ? "-" : "");
    if (hooks.memory) rememberOrder(`${hooks.memory}|${decision.kind}`, ctx.canonical || text);
    hooks.submit(text);
  });
  form.appendChild(h("p", { class: "prompt" }, decision.prompt || "Your decision"));
  const notes = [];
  if (decision.secret) notes.push("secret: nobody sees it until every order is in");
  if (decision.time_limit) {
    notes.push(`timed: ${decision.time_limit} s, then "${decision.on_timeout}" is given for you`);
  }
  if (notes.length) form.appendChild(h("p", { class: "decision-notes" }, notes.join(" · ")));

  const body = h("div", { class: "decision-body" });
  form.appendChild(body);
  const orderText = h("input", {
    id: "order-text",
    type: "text",
    spellcheck: "false",
    placeholder: "order in the notation",
    "aria-label": "order",
  });
  const submit = h("button", { id: "submit", type: "submit", disabled: true }, "Submit");
  const check = h("p", { id: "order-check", class: "order-check", "aria-live": "polite" });
  form.appendChild(h("div", { class: "order-line" }, orderText, submit));
  form.appendChild(check);
  container.appendChild(form);

  const kinds = { choose: chooseForm, distribute: distributeForm, hex: hexForm, arrange: arrangeForm };
  const build = kinds[decision.kind] || freeForm;
  const ctx = { orderText, submit, check, hooks, canonical: null, onCanonical: null };
  const ctl = build(body, decision, ctx);
  serverCheck(decision, ctx);
  if (hooks.glossary) form.appendChild(legend(hooks.glossary));
  return {
    legalHexes: ctl.legalHexes || [],
    pickHex: ctl.pickHex || (() => {}),
    focus: () => (ctl.focus || (() => orderText.focus()))(),
  };
}

// -- choose ------------------------------------------------------------------------------------
function chooseForm(body, d, ctx) {
  const { orderText, submit, hooks } = ctx;
  const options = d.options || [];
  const filter = h("input", {
    id: "option-filter",
    type: "search",
    placeholder: `filter ${options.length} options`,
    "aria-label": "filter options",
  });
  const list = h("ul", { id: "options", class: "options" });
  body.append(filter, list);
  const buttons = [];
  let selected = null;

  const sameText = (a, b) => a.trim().toUpperCase().replace(/\s+/g, " ") === b.trim().toUpperCase().replace(/\s+/g, " ");
  const select = (opt, fromText = false) => {
    selected = opt;
    for (const b of buttons) b.node.classList.toggle("selected", b.opt === opt);
    if (opt && !fromText) orderText.value = opt.text;
    submit.disabled = !orderText.value.trim();
    hooks.preview(opt);
    hooks.select(opt && opt.hex ? opt.hex : null);
  };

  for (const opt of options) {
    const meaning = opt.label || meaningOf(opt.text, hooks.glossary);
    const node = h(
      "button",
      { type: "button", class: "option", "data-option": opt.text, title: meaning ? `${opt.text}: ${meaning}` : opt.text },
      h("span", { class: "option-text" }, opt.text),
      opt.label ? h("span", { class: "option-label" }, opt.label) : null,
    );
    node.addEventListener("click", () => select(opt));
    node.addEventListener("dblclick", () => {
      select(opt);
      hooks.submit(opt.text);
    });
    node.addEventListener("mouseenter", () => hooks.preview(opt));
    node.addEventListener("mouseleave", () => hooks.preview(selected));
    const li = h("li", {}, node);
    list.appendChild(li);
    buttons.push({ opt, node, li, hay: `${opt.text} ${meaning || ""}`.toLowerCase() });
  }
  filter.addEventListener("input", () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const b of buttons) b.li.hidden = !words.every((w) => b.hay.includes(w));
  });
  orderText.addEventListener("input", () => {
    const match = options.find((o) => sameText(o.text, orderText.value));
    select(match || null, true);
  });
  // Another spelling of an option (ff(r) for F F(R)): the server's reading selects it.
  ctx.onCanonical = (canonical) => {
    const match = options.find((o) => o.text === canonical);
    if (match) select(match, true);
  };
  const legalHexes = options.filter((o) => o.hex).map((o) => o.hex);
  return {
    legalHexes,
    // A long list is typed into (the book's notation, keyboard only); a short one is picked.
    focus: () => (options.length > 12 ? orderText : buttons[0] ? buttons[0].node : orderText).focus(),
    pickHex(q, r) {
      const here = options.filter((o) => o.hex && o.hex[0] === q && o.hex[1] === r);
      if (!here.length) return;
      select(here[0]);
      // Several options end on that hex (a move with different facings): show just them.
      for (const b of buttons) b.li.hidden = here.length > 1 && !here.includes(b.opt);
    },
  };
}

// -- distribute ------------------------------------------------------------------------------
function distributeForm(body, d, ctx) {
  const { orderText, submit, check, hooks } = ctx;
  const slots = d.slots || [];
  const values = new Map(slots.map((s) => [s.name, s.min || 0]));
  const inputs = new Map();
  const table = h("table", { class: "slots" });
  for (const s of slots) {
    const input = h("input", {
      type: "number",
      min: s.min,
      max: s.max,
      step: s.step || 1,
      value: values.get(s.name),
      "data-slot": s.name,
      "aria-label": s.name,
    });
    const set = (v) => {
      values.set(s.name, v);
      input.value = String(v);
      update(true);
    };
    input.addEventListener("input", () => {
      const v = Number.parseInt(input.value, 10);
      values.set(s.name, Number.isFinite(v) ? v : 0);
      update(true);
    });
    const minus = h("button", { type: "button", class: "minus", "aria-label": `less ${s.name}` }, "−");
    const plus = h("button", { type: "button", class: "plus", "aria-label": `more ${s.name}` }, "+");
    minus.addEventListener("click", () => set(Math.max(s.min, values.get(s.name) - (s.step || 1))));
    plus.addEventListener("click", () => set(Math.min(s.max, values.get(s.name) + (s.step || 1))));
    inputs.set(s.name, input);
    table.appendChild(
      h("tr", { "data-slot-row": s.name },
        h("th", { scope: "row", title: s.label || "" }, s.label ? `${s.name} · ${s.label}` : s.name),
        h("td", {}, minus, input, plus),
        h("td", { class: "limits" }, `${s.min}–${s.max}`)),
    );
  }
  const total = h("p", { id: "total", class: "total" });
  const bar = presetBar(d, hooks, (amounts) => {
    for (const s of slots) values.set(s.name, amounts.get(s.name) || 0);
    for (const [name, input] of inputs) input.value = String(values.get(name));
    update(true);
  });
  body.append(...(bar ? [bar] : []), table, total);

  // Nothing allocated is an empty field (the order "-" is sent for it), never a pre-filled "-".
  const format = () => {
    const parts = slots.filter((s) => values.get(s.name)).map((s) => `${s.name}:${values.get(s.name)}`);
    return parts.join(" ");
  };
  const problems = () => {
    const out = [];
    for (const s of slots) {
      const v = values.get(s.name);
      if (!(v >= s.min && v <= s.max)) out.push(`${s.name} must be ${s.min}..${s.max}`);
      else if ((v - s.min) % (s.step || 1)) out.push(`${s.name} takes points ${s.step} at a time`);
    }
    const spent = [...values.values()].reduce((a, b) => a + b, 0);
    if (spent > d.budget) out.push(`${spent} is over the budget of ${d.budget}`);
    if (d.exact && spent !== d.budget) out.push(`spend exactly ${d.budget}`);
    const used = [...values.values()].filter((v) => v).length;
    if (d.max_used !== null && d.max_used !== undefined && used > d.max_used) {
      out.push(`at most ${d.max_used} slots may be used`);
    }
    // A cap several slots share (the Colosseum's defences may not take CFs from positional
    // advantage, §10.3.3); the server checks it too.
    for (const g of d.groups || []) {
      const taken = g.slots.reduce((a, n) => a + (values.get(n) || 0), 0);
      if (taken > g.max) out.push(`${g.slots.join(", ")} may take ${g.max} together, not ${taken}${g.why ? ` (${g.why})` : ""}`);
      // A group may also say how many of its slots may be used (one attack per body area).
      // With `above`, a slot counts as used only past that many points (one attack over 8 CF).
      const inUse = g.slots.filter((n) => (values.get(n) || 0) > (g.above || 0)).length;
      if (g.max_used !== null && g.max_used !== undefined && inUse > g.max_used) {
        const over = g.above ? ` with more than ${g.above}` : "";
        out.push(`at most ${g.max_used} of ${g.slots.join(", ")} may be used${over}${g.why ? ` (${g.why})` : ""}`);
      }
    }
    return { out, spent, used };
  };
  const update = (fromInputs) => {
    const { out, spent, used } = problems();
    const cap = d.max_used !== null && d.max_used !== undefined ? ` · slots used ${used} of at most ${d.max_used}` : "";
    // Only the caps a form names are summed up here (the per-area groups would crowd it).
    const shared = (d.groups || []).filter((g) => g.label).map((g) => {
      const taken = g.slots.reduce((a, n) => a + (values.get(n) || 0), 0);
      return ` · ${g.label || g.slots.join(", ")} ${taken} of at most ${g.max}`;
    }).join("");
    total.textContent = `Total ${spent} of ${d.budget}${d.exact ? " (exactly)" : ""}${cap}${shared}`;
    total.classList.toggle("over", spent > d.budget);
    for (const [name, input] of inputs) {
      const s = slots.find((x) => x.name === name);
      const v = values.get(name);
      input.classList.toggle("invalid", !(v >= s.min && v <= s.max));
    }
    if (fromInputs) {
      orderText.value = format();
      ctx.canonical = null;
    }
    check.className = out.length ? "order-check bad" : "order-check";
    check.textContent = out.length ? out.join("; ") : spent ? "" : "nothing allocated: Submit gives the order -";
    submit.disabled = out.length > 0;
  };
  const fill = (amounts) => {
    for (const s of slots) values.set(s.name, s.min || 0);
    for (const [name, v] of Object.entries(amounts)) {
      const slot = slots.find((s) => s.name.toUpperCase() === name.toUpperCase());
      if (slot) values.set(slot.name, values.get(slot.name) + v);
    }
    for (const [name, input] of inputs) input.value = String(values.get(name));
  };
  // Typing the slot notation (A-HEAD:3) fills the inputs at once; any other spelling the
  // ruleset reads (the book's A3:head D2:arms) is read by the server, whose canonical order
  // then fills them (ctx.onCanonical).
  orderText.addEventListener("input", () => {
    const amounts = amountsOf(orderText.value);
    if (amounts && Object.keys(amounts).every((n) => slots.some((s) => s.name.toUpperCase() === n))) {
      fill(amounts);
      update(false);
      return;
    }
    submit.disabled = true;
    check.className = "order-check";
    check.textContent = hooks.check ? "reading…" : `cannot read ${orderText.value.trim()}`;
  });
  ctx.onCanonical = (canonical) => {
    const amounts = amountsOf(canonical);
    if (!amounts) return;
    fill(amounts);
    update(false);
  };
  update(true);
  // The allocation is typed in the notation (A3:head D2:arms) straight away; Tab reaches the numbers.
  return { focus: () => orderText.focus() };
}

// One click each: the last allocation again, balanced, all-out attack, all defence (presets.js).
function presetBar(d, hooks, apply) {
  const last = hooks.memory ? lastOrder(`${hooks.memory}|distribute`) : null;
  const lastAmounts = last ? amountsOf(last) : null;
  const found = presets(d, lastAmounts);
  const names = [
    ["last", "repeat last", last ? `again: ${last}` : "no earlier allocation in this match"],
    ["balanced", "balanced", "half the CFs to attacks, half to defences, spread over the areas"],
    ["attack", "all-out attack", "every CF to attacks, spread over the areas"],
    ["defence", "all defence", "every CF to defences, spread over the areas"],
  ];
  if (!hasAttackDefence(d) && !lastAmounts) return null;
  const bar = h("div", { id: "presets", class: "presets", role: "group", "aria-label": "allocation presets" });
  for (const [key, label, title] of names) {
    if (key !== "last" && !found[key]) continue;
    const b = h("button", { type: "button", class: "preset", "data-preset": key, title, disabled: !found[key] }, label);
    b.addEventListener("click", () => apply(found[key]));
    bar.appendChild(b);
  }
  return bar;
}

// -- hex -------------------------------------------------------------------------------------
function hexForm(body, d, { orderText, submit, hooks }) {
  const hexes = d.hexes || [];
  const list = h("div", { class: "hex-options" });
  const buttons = [];
  const pick = (q, r) => {
    orderText.value = `${q},${r}`;
    for (const b of buttons) b.node.classList.toggle("selected", b.q === q && b.r === r);
    submit.disabled = false;
    hooks.select([q, r]);
  };
  for (const [q, r] of hexes) {
    const node = h("button", { type: "button", class: "option", "data-hex-option": `${q},${r}` }, `${q},${r}`);
    node.addEventListener("click", () => pick(q, r));
    list.appendChild(node);
    buttons.push({ q, r, node });
  }
  body.append(h("p", { class: "hint" }, "Click a highlighted hex on the board, or one of these:"), list);
  orderText.addEventListener("input", () => {
    submit.disabled = !orderText.value.trim();
  });
  return {
    legalHexes: hexes,
    pickHex(q, r) {
      if (hexes.some(([a, b]) => a === q && b === r)) pick(q, r);
    },
  };
}

// -- arrange ---------------------------------------------------------------------------------
function arrangeForm(body, d, { orderText, submit }) {
  const items = [...(d.items || [])];
  const list = h("ol", { id: "arrange", class: "arrange" });
  body.append(h("p", { class: "hint" }, "First to last:"), list);
  const draw = () => {
    list.replaceChildren();
    items.forEach((item, i) => {
      const up = h("button", { type: "button", class: "up", "aria-label": `move ${item} up`, disabled: i === 0 }, "↑");
      const down = h("button", { type: "button", class: "down", "aria-label": `move ${item} down`, disabled: i === items.length - 1 }, "↓");
      up.addEventListener("click", () => { [items[i - 1], items[i]] = [items[i], items[i - 1]]; draw(); });
      down.addEventListener("click", () => { [items[i + 1], items[i]] = [items[i], items[i + 1]]; draw(); });
      list.appendChild(h("li", { "data-item": item }, h("span", { class: "item-name" }, item), up, down));
    });
    orderText.value = items.join(" ");
    submit.disabled = false;
  };
  orderText.addEventListener("input", () => {
    submit.disabled = !orderText.value.trim();
  });
  draw();
  return {};
}

// -- a kind this page does not know: the notation alone --------------------------------------
function freeForm(body, d, { orderText, submit }) {
  body.append(h("p", { class: "hint" }, `Type the order (${d.kind}).`));
  orderText.addEventListener("input", () => {
    submit.disabled = !orderText.value.trim();
  });
  return {};
}
