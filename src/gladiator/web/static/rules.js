// The rules reference page: a link to a § the summary does not number to that depth
// (#s9.5.3 where the page stops at 9.5) goes to the nearest enclosing section instead.

function nearest(hash) {
  let id = decodeURIComponent(hash.replace(/^#/, ""));
  while (id && !document.getElementById(id)) {
    const cut = id.lastIndexOf(".");
    if (cut < 0) return null;
    id = id.slice(0, cut);
  }
  return id ? document.getElementById(id) : null;
}

function go() {
  if (!location.hash) return;
  const target = nearest(location.hash);
  if (!target) return;
  for (const old of document.querySelectorAll(".rules-text .target")) old.classList.remove("target");
  target.classList.add("target");
  target.scrollIntoView({ block: "start" });
}

window.addEventListener("hashchange", go);
go();
