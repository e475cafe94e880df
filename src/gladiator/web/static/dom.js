// Small DOM helpers of the lobby and the campaign pages.

export const $ = (sel) => document.querySelector(sel);

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

// An SVG element (the plot).
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return node;
}

export function show(sel, text) {
  const node = $(sel);
  node.textContent = text || "";
  node.hidden = !text;
}

// Fill a <select> with [value, label] pairs, keeping the value chosen where it is still offered.
export function fill(select, items) {
  const keep = select.value;
  const key = JSON.stringify(items);
  if (select.dataset.items !== key) {
    select.dataset.items = key;
    select.replaceChildren(...items.map(([value, label]) => h("option", { value }, label)));
  }
  if (items.some(([v]) => v === keep)) select.value = keep;
}
