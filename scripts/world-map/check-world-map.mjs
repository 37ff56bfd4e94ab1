// Validates resources/map/world-110m.json (format: resources/map/README.md) and exits non-zero, listing
// every problem, when the file is not something the peer map can draw as it is. Needs no packages.
//
// Usage: node check-world-map.mjs [path-to-world-110m.json]

import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const path = resolve(process.argv[2] ?? join(here, "..", "..", "resources", "map", "world-110m.json"));

// The resource ships inside the app; a regenerated file far above this means the wrong scale was used.
const maxBytes = 300 * 1024;

const errors = [];
const fail = (message) => {
  errors.push(message);
};

function finish() {
  if (errors.length > 0) {
    const shown = errors.slice(0, 50);
    for (const e of shown) console.error(`error: ${e}`);
    if (errors.length > shown.length) console.error(`... and ${errors.length - shown.length} more`);
    console.error(`${path}: ${errors.length} problem(s)`);
    process.exit(1);
  }
}

const isLonLat = (p) =>
  Array.isArray(p) &&
  p.length === 2 &&
  Number.isFinite(p[0]) &&
  Number.isFinite(p[1]) &&
  p[0] >= -180 &&
  p[0] <= 180 &&
  p[1] >= -90 &&
  p[1] <= 90;
const onGrid = (v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
const samePoint = (a, b) => a[0] === b[0] && a[1] === b[1];

// Even-odd rule over all of a country's rings, the rule the app fills with.
function contains(rings, [px, py]) {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

function checkRing(where, ring) {
  if (!Array.isArray(ring)) return fail(`${where}: not an array`);
  const bad = ring.findIndex((p) => !isLonLat(p));
  if (bad >= 0)
    return fail(`${where}: point ${bad} is not [lon, lat] within ±180/±90: ${JSON.stringify(ring[bad])}`);
  const offGrid = ring.findIndex((p) => !onGrid(p[0]) || !onGrid(p[1]));
  if (offGrid >= 0)
    fail(`${where}: point ${offGrid} is not a multiple of 0.01°: ${JSON.stringify(ring[offGrid])}`);
  for (let i = 1; i < ring.length; ++i) {
    if (samePoint(ring[i - 1], ring[i]))
      fail(`${where}: points ${i - 1} and ${i} repeat ${JSON.stringify(ring[i])}`);
    // An edge longer than half the world would be drawn across the map; only the closing edge of a
    // ring around a pole, which runs along the pole itself, may span it.
    const alongPole = Math.abs(ring[i][1]) === 90 && ring[i][1] === ring[i - 1][1];
    if (Math.abs(ring[i][0] - ring[i - 1][0]) > 180 && !alongPole) {
      fail(
        `${where}: edge ${i - 1}-${i} crosses the map: ${JSON.stringify(ring[i - 1])} to ${JSON.stringify(ring[i])}`,
      );
    }
  }
  // Closed (first point repeated at the end) or closable (at least three distinct points to close).
  const open = ring.length > 0 && !samePoint(ring[0], ring[ring.length - 1]);
  const distinct = new Set(ring.map((p) => `${p[0]},${p[1]}`)).size;
  if (distinct < 3) fail(`${where}: ${distinct} distinct point(s), cannot enclose an area`);
  return open;
}

let text;
try {
  text = readFileSync(path, "utf8");
} catch (e) {
  fail(`cannot read: ${e.message}`);
  finish();
}
let map;
try {
  map = JSON.parse(text);
} catch (e) {
  fail(`not valid JSON: ${e.message}`);
  finish();
}
const size = statSync(path).size;
if (size > maxBytes) fail(`file is ${size} bytes, more than ${maxBytes}`);
if (map === null || typeof map !== "object" || Array.isArray(map)) {
  fail("top level is not an object");
  finish();
}
if (map.format !== "sahaj-world-map") fail(`format is ${JSON.stringify(map.format)}, not "sahaj-world-map"`);
if (map.version !== 1) fail(`version is ${JSON.stringify(map.version)}, not 1`);
if (!Array.isArray(map.countries) || map.countries.length === 0) {
  fail('"countries" is missing or empty');
  finish();
}

const byCode = new Map();
let previousCode = "";
let ringCount = 0;
let pointCount = 0;
let openRings = 0;
map.countries.forEach((c, index) => {
  const where = `countries[${index}]${c && typeof c.code === "string" ? ` (${c.code})` : ""}`;
  if (c === null || typeof c !== "object") return fail(`${where}: not an object`);
  if (typeof c.code !== "string" || !/^[A-Z]{2}$/.test(c.code))
    fail(`${where}: code ${JSON.stringify(c.code)} is not two capital letters`);
  else {
    if (byCode.has(c.code)) fail(`${where}: code ${c.code} appears twice`);
    if (c.code <= previousCode) fail(`${where}: not sorted by code (after ${previousCode})`);
    previousCode = c.code;
    byCode.set(c.code, c);
  }
  if (typeof c.name !== "string" || c.name.trim() === "") fail(`${where}: name is missing or empty`);
  if (!isLonLat(c.label))
    fail(`${where}: label ${JSON.stringify(c.label)} is not [lon, lat] within ±180/±90`);
  if (!Array.isArray(c.rings) || c.rings.length === 0) return fail(`${where}: rings are missing or empty`);
  const errorsBefore = errors.length;
  c.rings.forEach((ring, r) => {
    if (checkRing(`${where} ring ${r}`, ring)) ++openRings;
    ringCount += 1;
    pointCount += Array.isArray(ring) ? ring.length : 0;
  });
  if (errors.length === errorsBefore && isLonLat(c.label) && !contains(c.rings, c.label)) {
    fail(`${where}: label ${JSON.stringify(c.label)} lies outside the country`);
  }
});

// The countries the project's own users are most likely to share; their label points must fall where
// a reader would look for them (boxes around each country's mainland).
const expected = [
  { code: "BD", lon: [88.0, 92.7], lat: [20.7, 26.7] },
  { code: "IN", lon: [68.1, 97.4], lat: [8.0, 35.5] },
];
for (const { code, lon, lat } of expected) {
  const c = byCode.get(code);
  if (!c) {
    fail(`${code} is missing`);
    continue;
  }
  if (!isLonLat(c.label)) continue;
  const [x, y] = c.label;
  if (x < lon[0] || x > lon[1] || y < lat[0] || y > lat[1]) {
    fail(`${code}: label ${JSON.stringify(c.label)} is outside lon ${lon.join("..")}, lat ${lat.join("..")}`);
  }
}
// A label inside its own country but also inside a neighbour would mean overlapping outlines.
for (const c of byCode.values()) {
  if (!isLonLat(c.label) || !Array.isArray(c.rings)) continue;
  for (const other of byCode.values()) {
    if (
      other === c ||
      !Array.isArray(other.rings) ||
      !other.rings.every((r) => Array.isArray(r) && r.every(isLonLat))
    )
      continue;
    if (contains(other.rings, c.label))
      fail(`${c.code}: label ${JSON.stringify(c.label)} also lies inside ${other.code}`);
  }
}

finish();
console.log(
  `${path}: OK: ${size} bytes, ${map.countries.length} countries, ${ringCount} rings (${openRings} open), ${pointCount} points`,
);
