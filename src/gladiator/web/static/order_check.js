// The order form's live check: after each keystroke (debounced) the server's own parser reads
// the typed order (POST /api/matches/{id}/check through hooks.check); the form shows what it
// reads as, or the reason and the legal orders. The server checks the order again when given.

import { meaningOf } from "./glossary.js";

const CHECK_MS = 200;

function showCheck(check, text, cls) {
  check.replaceChildren();
  check.className = `order-check ${cls || ""}`.trim();
  if (typeof text === "string") check.textContent = text;
  else check.append(...text);
}

function legalList(legal) {
  const shown = legal.slice(0, 24);
  const ul = document.createElement("ul");
  ul.className = "legal";
  for (const l of shown) {
    const li = document.createElement("li");
    li.textContent = l;
    ul.appendChild(li);
  }
  if (legal.length > shown.length) {
    const li = document.createElement("li");
    li.textContent = `… and ${legal.length - shown.length} more`;
    ul.appendChild(li);
  }
  return ul;
}

// After each keystroke, the server's parser reads the order: the form shows what it
// reads as and fills itself from it (ctx.onCanonical), or the reason and what is legal.
export function serverCheck(decision, ctx) {
  const { orderText, submit, check, hooks } = ctx;
  if (!hooks.check) return;
  let timer = null;
  let asked = 0;
  orderText.addEventListener("input", () => {
    ctx.canonical = null;
    clearTimeout(timer);
    check.classList.remove("ok");
    delete check.dataset.checked;
    const text = orderText.value.trim();
    if (!text) return;
    timer = setTimeout(async () => {
      const seq = ++asked;
      let answer;
      try {
        answer = await hooks.check(text);
      } catch {
        return; // no answer: the order is checked when it is given
      }
      if (seq !== asked || orderText.value.trim() !== text) return;
      check.dataset.checked = text; // which text this answer is about (tests wait on it)
      if (answer.ok) {
        ctx.canonical = answer.order;
        if (ctx.onCanonical) ctx.onCanonical(answer.order);
        // An allocation's slots say what they are; a plot's tokens are spelled out (§7.2.2).
        const meaning = decision.kind === "distribute" ? null : meaningOf(answer.order, hooks.glossary);
        const same = answer.order.replace(/\s+/g, " ") === text.replace(/\s+/g, " ");
        showCheck(check, `${same ? "legal" : `reads as ${answer.order}`}${meaning ? `: ${meaning}` : ""}`, "ok");
        submit.disabled = false;
      } else {
        const legal = answer.legal || [];
        const parts = [document.createTextNode(answer.reason || answer.error)];
        if (legal.length) parts.push(document.createTextNode(decision.kind === "distribute" ? ". Slots:" : ". Legal:"), legalList(legal));
        showCheck(check, parts, "bad");
        submit.disabled = true;
      }
    }, CHECK_MS);
  });
}

