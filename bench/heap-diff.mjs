// Compares two V8 heap snapshots (.heapsnapshot, as Chromium's DevTools or `npm run bench:board --
// --snapshots` write them) by what they hold: for each kind of object (its constructor, a closure's
// function name, arrays, strings, …) the count and the self size in each, sorted by growth. A leak
// shows as a kind whose count keeps rising between a warmed-up snapshot and a late one.
//
//   node bench/heap-diff.mjs early.heapsnapshot late.heapsnapshot [--top 30]
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' } },
});
if (positionals.length !== 2) {
  console.error('usage: node bench/heap-diff.mjs early.heapsnapshot late.heapsnapshot [--top N]');
  process.exit(2);
}

/** kind → { count, size } of one snapshot. */
function summarise(file) {
  const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[fields.indexOf('type')];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const width = fields.length;
  const { nodes, strings } = snap;
  const kinds = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    // Strings and numbers are named by their contents: group them by type alone.
    const name = ['string', 'concatenated string', 'sliced string', 'number', 'hidden', 'code'].includes(type)
      ? ''
      : strings[nodes[i + nameAt]].slice(0, 60);
    const key = `${type}${name ? ` ${name}` : ''}`;
    const size = nodes[i + sizeAt];
    total += size;
    const kind = kinds.get(key) ?? { count: 0, size: 0 };
    kind.count++;
    kind.size += size;
    kinds.set(key, kind);
  }
  return { kinds, total };
}

const [a, b] = positionals.map(summarise);
const rows = [];
for (const key of new Set([...a.kinds.keys(), ...b.kinds.keys()])) {
  const x = a.kinds.get(key) ?? { count: 0, size: 0 };
  const y = b.kinds.get(key) ?? { count: 0, size: 0 };
  if (x.count !== y.count || x.size !== y.size) rows.push({ key, x, y, dSize: y.size - x.size, dCount: y.count - x.count });
}
rows.sort((p, q) => q.dSize - p.dSize);
const kb = (n) => (n / 1024).toFixed(1);
console.log(`self size: ${kb(a.total)} KB → ${kb(b.total)} KB (${b.total >= a.total ? '+' : ''}${kb(b.total - a.total)} KB)\n`);
console.log('| kind | count | count after | Δ count | KB | KB after | Δ KB |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows.slice(0, Number(opts.top) || 30)) {
  console.log(
    `| ${r.key.replaceAll('|', '\\|')} | ${r.x.count} | ${r.y.count} | ${r.dCount} | ${kb(r.x.size)} | ${kb(r.y.size)} | ${kb(r.dSize)} |`,
  );
}
