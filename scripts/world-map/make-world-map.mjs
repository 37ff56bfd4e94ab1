// Builds resources/map/world-110m.json (and its README.md) from Natural Earth's 1:110m country outlines
// as redistributed by the npm package world-atlas. The output is plain JSON so that the desktop app can
// read it with QJsonDocument alone; the format is described in the README written below.
//
// Usage (in this folder): npm ci && node make-world-map.mjs [output-dir]
// The output is deterministic: the same package versions give byte-identical files.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { feature } from "topojson-client";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(process.argv[2] ?? join(here, "..", "..", "resources", "map"));
const outJson = join(outDir, "world-110m.json");
const outReadme = join(outDir, "README.md");

const atlasVersion = require("world-atlas/package.json").version;
const isoVersion = require("i18n-iso-countries/package.json").version;
const topojsonVersion = require("topojson-client/package.json").version;

// ISO 3166-1 numeric -> alpha-2, from i18n-iso-countries' codes.json (rows of [alpha-2, alpha-3,
// numeric, ...], taken from the officially assigned ISO 3166-1 elements).
const alpha2ByNumeric = new Map(require("i18n-iso-countries/codes.json").map((row) => [row[2], row[0]]));

// Natural Earth areas that ISO 3166-1 gives no code. They get codes from the user-assigned X? range,
// which ISO guarantees will never be given to a country, so they can never collide with a real one.
// XK is the code the EU, CLDR (and so QLocale::Kosovo) use for Kosovo; the other two are our own.
// Keyed by the world-atlas name because these features carry no numeric id.
const pseudoCodeByName = new Map([
  ["Kosovo", "XK"],
  ["N. Cyprus", "XN"],
  ["Somaliland", "XS"],
]);

const hundredths = (degrees) => Math.round(degrees * 100);

// Signed area (shoelace) and centroid of a ring in the lon/lat plane; coordinates in hundredths.
function ringMoments(ring) {
  let area2 = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i + 1 < ring.length; ++i) {
    const [x0, y0] = ring[i];
    const [x1, y1] = ring[i + 1];
    const cross = x0 * y1 - x1 * y0;
    area2 += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  return { area2, cx, cy };
}

// True area on the sphere is what "largest polygon" should mean (Alaska is not larger than the
// contiguous US); the sinusoidal projection is equal-area, so its planar area ranks polygons correctly.
function equalArea(polygon) {
  let total = 0;
  polygon.forEach((ring, index) => {
    const projected = ring.map(([x, y]) => [x * Math.cos((y / 100) * (Math.PI / 180)), y]);
    const a = Math.abs(ringMoments(projected).area2);
    total += index === 0 ? a : -a;
  });
  return total;
}

// Even-odd rule over all rings of a polygon, the same rule the app fills with.
function contains(polygon, [px, py]) {
  let inside = false;
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

// Midpoint of the widest inside stretch of the horizontal line at latitude y: a point that is inside
// the polygon for shapes (crescents, archipelago pieces) whose centroid falls outside them.
function widestSpanMidpoint(polygon, y) {
  const xs = [];
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > y !== yj > y) xs.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
    }
  }
  xs.sort((a, b) => a - b);
  let best = null;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    if (best === null || xs[i + 1] - xs[i] > best[1] - best[0]) best = [xs[i], xs[i + 1]];
  }
  return best === null ? null : [(best[0] + best[1]) / 2, y];
}

// The label point: the centroid of the largest polygon, or, where that lies outside it, the middle of
// the widest inside stretch at the centroid's latitude (nudged off a vertex so the line is not tangent).
function labelPoint(polygons) {
  const largest = polygons.reduce((a, b) => (equalArea(b) > equalArea(a) ? b : a));
  let area2 = 0;
  let cx = 0;
  let cy = 0;
  largest.forEach((ring, index) => {
    const m = ringMoments(ring);
    // Holes subtract: the outer ring and the holes may wind either way, so align signs by role.
    const sign = (index === 0 ? 1 : -1) * Math.sign(m.area2);
    area2 += sign * m.area2;
    cx += sign * m.cx;
    cy += sign * m.cy;
  });
  const centroid = [cx / (3 * area2), cy / (3 * area2)];
  if (contains(largest, centroid)) return { point: centroid, fallback: false };
  const point = widestSpanMidpoint(largest, centroid[1] + 0.5) ?? centroid;
  return { point, fallback: true };
}

// world-atlas stitches Natural Earth's rings back together across the antimeridian (for spherical
// renderers): Fiji's and Chukotka's rings step from -180 to 179, and Antarctica's ring goes once around
// the pole. Drawn on a flat map those steps become lines across the whole world, so such rings are cut
// at ±180 here: unwrap the longitudes into one continuous run, close a ring around a pole along that
// pole, then clip the run into 360°-wide strips and shift each piece back into [-180, 180].
function unwrapLongitudes(ring) {
  const out = [[ring[0][0], ring[0][1]]];
  let offset = 0;
  for (let i = 1; i < ring.length; ++i) {
    const prev = out[i - 1][0];
    let x = ring[i][0] + offset;
    while (x - prev > 180) {
      x -= 360;
      offset -= 360;
    }
    while (x - prev < -180) {
      x += 360;
      offset += 360;
    }
    out.push([x, ring[i][1]]);
  }
  return out;
}

// Sutherland-Hodgman against the half-plane keep(x) bounded by the meridian x = edge. The strip is
// convex, so the result is right; where a piece has several parts in one strip they are joined by
// zero-width edges along the meridian, which neither fill nor show (they lie on the map's edge).
function clipToHalfPlane(ring, edge, keep) {
  const out = [];
  for (let i = 0; i + 1 < ring.length; ++i) {
    const a = ring[i];
    const b = ring[i + 1];
    const aIn = keep(a[0]);
    const bIn = keep(b[0]);
    if (aIn) out.push(a);
    if (aIn !== bIn) out.push([edge, a[1] + ((b[1] - a[1]) * (edge - a[0])) / (b[0] - a[0])]);
  }
  if (out.length > 0) out.push(out[0]);
  return out;
}

function cutAtAntimeridian(ring, name) {
  let run = unwrapLongitudes(ring);
  const first = run[0];
  const last = run[run.length - 1];
  if (Math.abs(last[0] - first[0]) > 180) {
    const meanLat = run.reduce((sum, p) => sum + p[1], 0) / run.length;
    const pole = meanLat < 0 ? -90 : 90;
    run = [...run, [last[0], pole], [first[0], pole], first];
    console.log(`${name}: ring around the ${pole < 0 ? "south" : "north"} pole closed along the pole`);
  }
  const xs = run.map((p) => p[0]);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  if (minX >= -180 && maxX <= 180) return [run];
  const pieces = [];
  for (let shift = Math.floor((minX + 180) / 360); shift * 360 - 180 < maxX; ++shift) {
    const west = shift * 360 - 180;
    const east = west + 360;
    let piece = clipToHalfPlane(run, west, (x) => x >= west);
    if (piece.length > 0) piece = clipToHalfPlane(piece, east, (x) => x <= east);
    if (piece.length > 0) pieces.push(piece.map(([x, y]) => [x - shift * 360, y]));
  }
  console.log(`${name}: ring cut at the antimeridian into ${pieces.length} pieces`);
  return pieces;
}

// Quantises a ring to hundredths of a degree and drops consecutive duplicates (including a repeated
// closing point, which is added back once). Returns null when fewer than three distinct points remain.
function quantiseRing(ring) {
  const out = [];
  for (const [lon, lat] of ring) {
    const p = [hundredths(lon), hundredths(lat)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  while (out.length > 1 && out[0][0] === out[out.length - 1][0] && out[0][1] === out[out.length - 1][1]) {
    out.pop();
  }
  if (out.length < 3) return null;
  out.push(out[0]);
  // Pieces that collapse onto a line (e.g. slivers left on the antimeridian) enclose nothing.
  if (ringMoments(out).area2 === 0) return null;
  return out;
}

const topology = JSON.parse(readFileSync(require.resolve("world-atlas/countries-110m.json"), "utf8"));
const collection = feature(topology, topology.objects.countries);

const countries = [];
const pseudo = [];
const problems = [];
const droppedRings = [];
const fallbackLabels = [];
for (const f of collection.features) {
  const name = f.properties.name;
  let code;
  if (f.id !== undefined) {
    code = alpha2ByNumeric.get(f.id);
    if (!code) problems.push(`no alpha-2 code for ISO numeric ${f.id} (${name})`);
  } else {
    code = pseudoCodeByName.get(name);
    if (code) pseudo.push(`${code} ${name}`);
    else problems.push(`feature without an id and without a pseudo-code: ${name}`);
  }
  if (!code) continue;
  const g = f.geometry;
  const polygonsIn = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
  const cutPolygonsIn = [];
  for (const polygonIn of polygonsIn) {
    const outerPieces = cutAtAntimeridian(polygonIn[0], name);
    const holes = polygonIn.slice(1);
    if (outerPieces.length === 1) {
      cutPolygonsIn.push([outerPieces[0], ...holes]);
      continue;
    }
    // None of Natural Earth's rings that cross the antimeridian has a hole; say so if one ever does.
    if (holes.length > 0) problems.push(`${name}: a polygon with holes crosses the antimeridian`);
    for (const piece of outerPieces) cutPolygonsIn.push([piece]);
  }
  const polygons = [];
  for (const polygonIn of cutPolygonsIn) {
    const outer = quantiseRing(polygonIn[0]);
    if (!outer) {
      droppedRings.push(`${code} (${polygonIn.length})`);
      continue;
    }
    const polygon = [outer];
    for (const holeIn of polygonIn.slice(1)) {
      const hole = quantiseRing(holeIn);
      if (hole) polygon.push(hole);
      else droppedRings.push(`${code} (hole)`);
    }
    polygons.push(polygon);
  }
  if (polygons.length === 0) {
    problems.push(`${code} ${name}: no ring survives quantisation`);
    continue;
  }
  const label = labelPoint(polygons);
  if (label.fallback) fallbackLabels.push(code);
  countries.push({
    code,
    name,
    label: label.point.map((v) => Math.round(v) / 100),
    rings: polygons.flat().map((ring) => ring.map(([x, y]) => [x / 100, y / 100])),
  });
}

pseudo.sort();
const seen = new Set();
for (const c of countries) {
  if (seen.has(c.code)) problems.push(`duplicate code ${c.code}`);
  seen.add(c.code);
}
if (problems.length > 0) {
  for (const p of problems) console.error(`error: ${p}`);
  process.exit(1);
}
countries.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

const header = {
  format: "sahaj-world-map",
  version: 1,
  source: `Natural Earth 1:110m Admin 0 countries via world-atlas ${atlasVersion} (countries-110m.json)`,
  units: "degrees, WGS84 longitude/latitude, quantised to 0.01",
};
// One country per line: small enough to diff, without the bulk of pretty-printing every point.
const lines = countries.map((c) => JSON.stringify(c));
const text = `${JSON.stringify(header).slice(0, -1)},"countries":[\n${lines.join(",\n")}\n]}\n`;
JSON.parse(text); // the assembled text must itself be valid JSON
mkdirSync(outDir, { recursive: true });
writeFileSync(outJson, text);

const pointCount = countries.reduce((n, c) => n + c.rings.reduce((m, r) => m + r.length, 0), 0);
const ringCount = countries.reduce((n, c) => n + c.rings.length, 0);

// A real entry, shortened, so the example cannot drift from the data.
const example = countries.find((c) => c.code === "BD") ?? countries[0];
const exampleRing = example.rings[0];
const exampleLine =
  JSON.stringify({ ...example, rings: [] }).replace(
    '"rings":[]',
    `"rings":[[${JSON.stringify(exampleRing[0])},${JSON.stringify(exampleRing[1])},...,${JSON.stringify(exampleRing.at(-1))}]]`,
  ) + ",";

const readme = `# Peer map outlines

\`world-110m.json\` holds the country outlines the desktop app draws its peer map with (peers are placed
by the country they chose to share). It is generated; do not edit it by hand.

## Source and licence

- Outlines: [Natural Earth](https://www.naturalearthdata.com/) 1:110m Admin 0 countries (version 4.1.0),
  which is in the public domain.
- Taken from the npm package \`world-atlas\` ${atlasVersion} (\`countries-110m.json\`, TopoJSON), ISC licence,
  decoded with \`topojson-client\` ${topojsonVersion} (ISC).
- ISO 3166-1 numeric to alpha-2 codes: \`codes.json\` of the npm package \`i18n-iso-countries\` ${isoVersion} (MIT).

## Regenerating

\`\`\`sh
cd scripts/world-map
npm ci && node make-world-map.mjs     # writes resources/map/world-110m.json and this README
node check-world-map.mjs              # validates the result; exits non-zero on any problem
\`\`\`

The versions are pinned in \`scripts/world-map/package-lock.json\`; the same versions give byte-identical output.

## Format

UTF-8 JSON, one country per line:

\`\`\`json
{"format":"sahaj-world-map","version":1,"source":"...","units":"...","countries":[
${exampleLine}
...
]}
\`\`\`

- \`countries\` is sorted by \`code\`; codes are unique.
- \`code\`: ISO 3166-1 alpha-2, upper case. Areas Natural Earth draws separately but ISO gives no code carry a
  code from ISO's user-assigned range (never given to a country): ${pseudo.join(", ")}.
- \`name\`: the English name as Natural Earth labels it on small-scale maps (short forms such as
  "Dem. Rep. Congo"); a user-facing list should take localised names from the code (QLocale) instead.
- \`label\`: \`[lon, lat]\`, a point inside the country's largest polygon (by true area) where a marker or
  name can go: that polygon's centroid, or, for shapes whose centroid lies outside them, the middle of the
  widest inside stretch at about the centroid's latitude.
- \`rings\`: every ring of every polygon (outer boundaries and holes alike, e.g. South Africa's ring around
  Lesotho) as closed lists of \`[lon, lat]\` (the first point is repeated at the end), with consecutive
  duplicate points removed. Fill them with the even-odd rule (\`Qt::OddEvenFill\`) and holes come out right.
  Rings are cut at the antimeridian (Fiji, Chukotka), so no edge crosses the map and an equirectangular
  projection needs no wrapping; Antarctica's ring is closed along the south pole (latitude -90). Those
  cuts add edges on longitude ±180 and latitude -90, which lie on the map's border when stroked.
- Coordinates are degrees in [-180, 180] × [-90, 90], multiples of 0.01.

Current content: ${countries.length} countries, ${ringCount} rings, ${pointCount} points.
`;
writeFileSync(outReadme, readme);

console.log(
  `wrote ${outJson} (${Buffer.byteLength(text)} bytes): ${countries.length} countries, ${ringCount} rings, ${pointCount} points`,
);
console.log(`wrote ${outReadme}`);
console.log(`pseudo-codes for areas without an ISO 3166-1 alpha-2 code: ${pseudo.join(", ")}`);
console.log(`rings dropped as degenerate after quantisation: ${droppedRings.join(" ") || "none"}`);
console.log(
  `label points off the centroid (centroid outside the polygon): ${fallbackLabels.join(" ") || "none"}`,
);
