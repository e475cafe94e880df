// § citations in text (the event log's "(§9.5)") as links into the ruleset's rules reference,
// /rules/{ruleset}#s9.5 (the page falls back to the nearest enclosing section it numbers).

const CITE = /§\s?(\d+(?:\.\d+)*)/g;

// A fragment of text nodes and links; the text itself is never read as markup.
export function citeLinks(text, ruleset) {
  const out = document.createDocumentFragment();
  if (!ruleset) {
    out.append(text);
    return out;
  }
  let last = 0;
  for (const m of text.matchAll(CITE)) {
    out.append(text.slice(last, m.index));
    const a = document.createElement("a");
    a.className = "cite";
    a.href = `/rules/${encodeURIComponent(ruleset)}#s${m[1]}`;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = m[0];
    out.append(a);
    last = m.index + m[0].length;
  }
  out.append(text.slice(last));
  return out;
}
