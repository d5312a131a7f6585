// A small local ESLint rule for one-way imports (CONVENTIONS.md §6): resolves relative and
// workspace imports to files and refuses those crossing a forbidden zone.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const workspace = {
  '@csms/contract': 'packages/contract/src',
  '@csms/server': 'packages/server/src',
  '@csms/web': 'packages/web/src',
  '@csms/simulator': 'packages/simulator/src',
  '@csms/card-reader': 'packages/reader/src',
};

function resolveImport(file, spec) {
  if (spec.startsWith('.')) return path.resolve(path.dirname(file), spec);
  for (const [name, dir] of Object.entries(workspace))
    if (spec === name || spec.startsWith(`${name}/`)) return path.join(root, dir, spec.slice(name.length));
  return undefined;
}

const inside = (p, dir) => p === dir || p.startsWith(dir + path.sep);

/** zones: [{ target, from: string[], except?: string[], message }] with paths relative to the repo root. */
const rule = {
  meta: { type: 'problem', schema: [{ type: 'object' }] },
  create(context) {
    const file = context.filename;
    const zones = (context.options[0]?.zones ?? []).filter((z) => inside(file, path.join(root, z.target)));
    if (zones.length === 0) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      const target = resolveImport(file, spec);
      if (!target) return;
      for (const z of zones) {
        const hit =
          z.from.some((f) => inside(target, path.join(root, f))) && !(z.except ?? []).some((e) => inside(target, path.join(root, e)));
        if (hit) context.report({ node, message: `${z.message} (${spec})` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'one-way-imports': rule } };
