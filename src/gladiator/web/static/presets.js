// Allocation presets for a distribute decision (gladiator.core.decisions.Distribute.to_dict()):
// one click fills the slots with an allocation the decision allows: every slot within its
// min..max and step, the budget, max_used and each group's cap and max_used (the Colosseum's
// §10.3.3 defence cap, one special a phase). The server checks the order again.
//
// Attack and defence slots are the plain ones named A-AREA and D-AREA (the Colosseum's §9.3
// boxes); special attacks and defences (A-ARMS-DISARM) and the net's slots are left at 0.

const PLAIN_ATTACK = /^A-[A-Z]+$/;
const PLAIN_DEFENCE = /^D-[A-Z]+$/;

export function hasAttackDefence(d) {
  const names = (d.slots || []).map((s) => s.name);
  return names.some((n) => PLAIN_ATTACK.test(n)) && names.some((n) => PLAIN_DEFENCE.test(n));
}

function limits(d) {
  const slots = new Map((d.slots || []).map((s) => [s.name, s]));
  return { slots, groups: d.groups || [], budget: d.budget || 0, maxUsed: d.max_used };
}

function used(values) {
  return [...values.values()].filter((v) => v).length;
}

// Whether `name` may take `step` more points.
function canAdd(values, name, step, lim) {
  const s = lim.slots.get(name);
  if (!s) return false;
  const now = values.get(name) || 0;
  if (now + step > s.max) return false;
  const spent = [...values.values()].reduce((a, b) => a + b, 0);
  if (spent + step > lim.budget) return false;
  const opens = now === 0;
  if (opens && lim.maxUsed !== null && lim.maxUsed !== undefined && used(values) >= lim.maxUsed) return false;
  for (const g of lim.groups) {
    if (!g.slots.includes(name)) continue;
    const taken = g.slots.reduce((a, n) => a + (values.get(n) || 0), 0);
    if (taken + step > g.max) return false;
    // With `above`, a slot counts as used only past that many points (one attack over 8 CF).
    const above = g.above || 0;
    const inUse = g.slots.filter((n) => (values.get(n) || 0) > above).length;
    const crosses = now <= above && now + step > above;
    if (crosses && g.max_used !== null && g.max_used !== undefined && inUse >= g.max_used) return false;
  }
  return true;
}

// Spread up to `points` over `names` one step at a time, round and round, as far as allowed.
function spread(values, names, points, lim) {
  let left = points;
  let moved = true;
  while (left > 0 && moved) {
    moved = false;
    for (const name of names) {
      const step = lim.slots.get(name).step || 1;
      if (step > left || !canAdd(values, name, step, lim)) continue;
      values.set(name, (values.get(name) || 0) + step);
      left -= step;
      moved = true;
      if (left <= 0) break;
    }
  }
  return points - left;
}

function start(d) {
  return new Map((d.slots || []).map((s) => [s.name, s.min || 0]));
}

function spent(values) {
  return [...values.values()].reduce((a, b) => a + b, 0);
}

// {name: values} for each preset this decision has; "last" needs the last order's amounts.
export function presets(d, lastAmounts = null) {
  const lim = limits(d);
  const names = (d.slots || []).map((s) => s.name);
  const attacks = names.filter((n) => PLAIN_ATTACK.test(n) && lim.slots.get(n).max > 0);
  const defences = names.filter((n) => PLAIN_DEFENCE.test(n) && lim.slots.get(n).max > 0);
  const out = {};
  if (lastAmounts) {
    const v = start(d);
    // The last order again, as far as this phase's limits let it (fewer CFs, a cap).
    for (const [written, amount] of Object.entries(lastAmounts)) {
      const name = names.find((n) => n.toUpperCase() === written.toUpperCase());
      if (!name) continue;
      const step = lim.slots.get(name).step || 1;
      for (let k = 0; k < amount; k += step) {
        if (!canAdd(v, name, step, lim)) break;
        v.set(name, v.get(name) + step);
      }
    }
    out.last = v;
  }
  if (attacks.length || defences.length) {
    const budget = lim.budget - spent(start(d));
    const all = start(d);
    spread(all, attacks, budget, lim);
    out.attack = all;
    const guard = start(d);
    spread(guard, defences, budget, lim);
    out.defence = guard;
    const even = start(d);
    spread(even, attacks, Math.ceil(budget / 2), lim);
    spread(even, defences, lim.budget - spent(even), lim);
    spread(even, attacks, lim.budget - spent(even), lim); // what defence may not take (§10.3.3)
    out.balanced = even;
  }
  return out;
}

// NAME:n items of an order in the slot notation; null when any item is not one.
export function amountsOf(text) {
  const out = {};
  const trimmed = (text || "").trim();
  if (!trimmed || trimmed === "-") return out;
  for (const item of trimmed.replace(/,/g, " ").split(/\s+/)) {
    const m = /^([A-Za-z][A-Za-z0-9_-]*)\s*[:=]\s*(-?\d+)$/.exec(item);
    if (!m) return null;
    const name = m[1].toUpperCase();
    out[name] = (out[name] || 0) + Number.parseInt(m[2], 10);
  }
  return out;
}

const LAST_KEY = "gladiator.last-orders";

// The last order given per (match, seat, decision kind), kept in this browser for "repeat last".
export function lastOrder(key) {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) || "{}")[key] || null;
  } catch {
    return null;
  }
}

export function rememberOrder(key, text) {
  try {
    const all = JSON.parse(localStorage.getItem(LAST_KEY) || "{}");
    delete all[key];
    all[key] = text;
    const keys = Object.keys(all);
    for (const old of keys.slice(0, Math.max(0, keys.length - 40))) delete all[old];
    localStorage.setItem(LAST_KEY, JSON.stringify(all));
  } catch {
    // storage refused (private window): no "repeat last"
  }
}
