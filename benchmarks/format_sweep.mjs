// Helper of format_sweep.py (run by it; not part of the library).
// argv: <node_modules dir> <style> <folder>, or <node_modules dir> compare
// (see below). Formats every .js file under
// <folder> in place with <style> and prints one JSON line per file:
// {"path", "parsed", "changed", "ast_equal"}; ast_equal compares acorn's ESTree
// of the file before and after (positions, raw texts, comments and empty
// statements in statement lists left out; a quoted key that is a name is
// that name).
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [modules, style, folder] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), "x.js"));
const acorn = require("acorn");

const STYLES = {
  prettier: {},
  "prettier-nosemi": { semi: false, singleQuote: true, arrowParens: "avoid", trailingComma: "none" },
};

function files(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(full));
    else if (/\.(js|mjs|cjs)$/.test(entry.name)) out.push(full);
  }
  return out;
}

function tree(text) {
  for (const sourceType of ["module", "script"]) {
    try {
      const ast = acorn.parse(text, { ecmaVersion: "latest", sourceType, allowHashBang: true,
        allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true });
      return JSON.stringify(ast, (key, value) => {
        if (key === "start" || key === "end" || key === "loc" || key === "raw" || key === "range") return undefined;
        if (typeof value === "bigint") return value.toString() + "n";
        // {"a": 1} is {a: 1} (prettier unquotes keys when none needs quotes).
        if (value && value.type === "Property" && !value.computed && value.key.type === "Literal"
            && typeof value.key.value === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(value.key.value)) {
          return { ...value, key: { type: "Identifier", name: value.key.value } };
        }
        // An empty statement in a statement list does nothing (prettier
        // without semicolons writes `;(a, b)`): left out on both sides.
        if ((key === "body" || key === "consequent") && Array.isArray(value)) {
          return value.filter((node) => !(node && node.type === "EmptyStatement"));
        }
        if (value instanceof RegExp) return undefined;  // the "regex" field says it
        if (key === "regex" && value) return { pattern: value.pattern, flags: [...value.flags].sort().join("") };
        return value;
      });
    } catch (e) { /* try the other source type */ }
  }
  return null;
}

// Wrappers that make a lone class member or object member parse.
const WRAPS = [["", ""], ["class X {\n", "\n}"], ["({\n", "\n})"]];

function span(text) {
  for (const [head, tail] of WRAPS) {
    const t = tree(head + text + tail);
    if (t !== null) return t;
  }
  return null;
}

if (style === "compare") {
  // stdin: a JSON list of [before, after] source texts (one definition
  // each); stdout: a JSON list of true (same tree), false, or null (either
  // side does not parse).
  const pairs = JSON.parse(fs.readFileSync(0, "utf8"));
  console.log(JSON.stringify(pairs.map(([a, b]) => {
    const ta = span(a), tb = span(b);
    return ta === null || tb === null ? null : ta === tb;
  })));
  process.exit(0);
}

const all = files(folder);
const before = new Map(all.map((f) => [f, fs.readFileSync(f, "utf8")]));
if (style === "standard") {
  try {
    execFileSync(process.execPath, [path.join(modules, "standard", "bin", "cmd.cjs"), "--fix", ...all],
      { cwd: folder, stdio: "ignore" });
  } catch (e) { /* standard exits 1 when problems remain that it cannot fix */ }
} else {
  const prettier = await import(path.resolve(modules, "prettier", "index.mjs"));
  for (const f of all) {
    try {
      fs.writeFileSync(f, await prettier.format(before.get(f), { parser: "babel", ...STYLES[style] }));
    } catch (e) { /* left as it was: reported as an error below */ }
  }
}
for (const f of all) {
  const a = tree(before.get(f));
  const after = fs.readFileSync(f, "utf8");
  console.log(JSON.stringify({
    path: path.relative(folder, f), parsed: a !== null, changed: after !== before.get(f),
    ast_equal: a !== null && a === tree(after),
  }));
}
