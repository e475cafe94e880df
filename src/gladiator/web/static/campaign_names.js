// Who and what the campaign view names: a lanista, a man, one side of a bout.

export const lanistaName = (view, lid) => (view.lanistas.find((l) => l.id === lid) || { name: "the house" }).name;
export const manName = (view, gid) => (view.gladiators.find((g) => g.id === gid) || { name: gid }).name;

// "Flamma (gallus), Crixus (secutor)" or "2 beasts" for one side of a bout.
export function sideText(view, bout, index) {
  const side = bout.sides[index];
  if (!side.gladiators.length) {
    const beasts = Object.values(bout.seats[0] || {}).filter((m) => m.startsWith("beast:")).map((m) => m.slice(6));
    return `${lanistaName(view, side.lanista)}: ${beasts.join(", ") || "beasts"}`;
  }
  const men = side.gladiators.map((g) => `${manName(view, g)}${bout.styles[g] ? ` (${bout.styles[g]})` : ""}`);
  return `${lanistaName(view, side.lanista)}: ${men.join(", ")}`;
}
