#!/usr/bin/env node
// Where a WebAssembly module's bytes go: sums the size of each function's
// body by crate and by module path, and lists the largest functions and
// data, read from the module's code and name sections. Names need a module
// built with them kept; for lbsim-web (docs/testing.md, "Module size"):
//   cargo build -p lbsim-web --target wasm32-unknown-unknown --profile wasm
//   wasm-bindgen --target web --out-dir /tmp/w --out-name lbsim-web \
//     target/wasm32-unknown-unknown/wasm/lbsim_web.wasm
//   wasm-opt -O3 -g /tmp/w/lbsim-web_bg.wasm -o /tmp/w/named.wasm
//   node scripts/wasm-sizes.mjs /tmp/w/named.wasm [TOP] [DEPTH]
// (-g keeps the names through wasm-opt; the module so made is within a
// percent of the published one.) TOP functions are listed (25 by default),
// module paths are summed to DEPTH segments (2).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A reader over the module's bytes, for LEB128 numbers and names. */
class Reader {
  constructor(bytes, at = 0) {
    this.bytes = bytes;
    this.at = at;
  }
  u32() {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  }
  name() {
    const length = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + length));
    this.at += length;
    return text;
  }
}

/** The module's sections: id, payload start and end, and a custom section's name. */
function sections(bytes) {
  const found = [];
  const r = new Reader(bytes, 8);
  while (r.at < bytes.length) {
    const id = bytes[r.at++];
    const size = r.u32();
    const end = r.at + size;
    const section = { id, start: r.at, end, size };
    if (id === 0) {
      section.name = r.name();
      section.start = r.at;
    }
    found.push(section);
    r.at = end;
  }
  return found;
}

/** How many functions the module imports: they come first in the index space. */
function importedFunctions(bytes, section) {
  const r = new Reader(bytes, section.start);
  let functions = 0;
  for (let n = r.u32(); n > 0; n--) {
    r.name();
    r.name();
    const kind = bytes[r.at++];
    if (kind === 0) {
      r.u32();
      functions++;
    } else if (kind === 1) {
      r.at++;
      limits(r);
    } else if (kind === 2) limits(r);
    else if (kind === 3) r.at += 2;
    else r.u32();
  }
  return functions;
}

function limits(r) {
  const flags = r.bytes[r.at++];
  r.u32();
  if (flags & 1) r.u32();
}

/** Function index to name, from the name section's function names. */
function functionNames(bytes, section) {
  const names = new Map();
  const r = new Reader(bytes, section.start);
  while (r.at < section.end) {
    const kind = bytes[r.at++];
    const end = r.u32() + r.at;
    if (kind === 1) {
      for (let n = r.u32(); n > 0; n--) names.set(r.u32(), r.name());
    }
    r.at = end;
  }
  return names;
}

/** Each defined function's index and body size. */
function bodies(bytes, section, firstIndex) {
  const r = new Reader(bytes, section.start);
  const found = [];
  const count = r.u32();
  for (let i = 0; i < count; i++) {
    const size = r.u32();
    found.push({ index: firstIndex + i, size });
    r.at += size;
  }
  return found;
}

/** Each data segment's size. */
function dataSegments(bytes, section) {
  const r = new Reader(bytes, section.start);
  const found = [];
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags === 2) r.u32();
    if (flags !== 1) while (bytes[r.at++] !== 0x0b);
    const size = r.u32();
    found.push(size);
    r.at += size;
  }
  return found;
}

/**
 * The module path a Rust symbol belongs to: the type's path for
 * `<Type as Trait>::f` and `<impl Trait for Type>::f` (the trait's where
 * the type has none, as `f64`), with generic arguments and crate hashes
 * dropped, as segments, e.g. ["core", "fmt"].
 */
export function pathOf(symbol) {
  const s = symbol.replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]{16}\]/g, '');
  const impl = s.match(/^<impl (?:(.+?) for )?(.+?)>::/);
  const qualified = s.match(/^<(.+?) as (.+?)>::/);
  const candidates = impl ? [impl[2], impl[1]] : qualified ? [qualified[1], qualified[2]] : [s];
  for (const candidate of candidates.filter(Boolean)) {
    const segments = outerSegments(candidate.replace(/^[<&*]+(?:mut |const |dyn )?/, ''));
    if (segments.length > 1) return impl || qualified ? segments : segments.slice(0, -1);
  }
  return ['(no path)'];
}

/** The `::`-separated segments of `path` outside its generic arguments. */
function outerSegments(path) {
  const segments = [''];
  let depth = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (depth === 0 && c === ':' && path[i + 1] === ':') {
      segments.push('');
      i++;
    } else if (depth === 0) segments[segments.length - 1] += c;
  }
  return segments.filter(Boolean);
}

/** Sums `items` ({ key, size }) by key, largest first. */
function sums(items) {
  const by = new Map();
  for (const { key, size } of items) {
    const entry = by.get(key) ?? { key, size: 0, count: 0 };
    entry.size += size;
    entry.count++;
    by.set(key, entry);
  }
  return [...by.values()].sort((a, b) => b.size - a.size);
}

/** The profile of the module in `bytes`. */
export function profile(bytes, depth = 2) {
  const all = sections(bytes);
  const imports = all.find((s) => s.id === 2);
  const code = all.find((s) => s.id === 10);
  const data = all.find((s) => s.id === 11);
  const nameSection = all.find((s) => s.id === 0 && s.name === 'name');
  const names = nameSection ? functionNames(bytes, nameSection) : new Map();
  const functions = bodies(bytes, code, imports ? importedFunctions(bytes, imports) : 0).map((f) => {
    const name = names.get(f.index) ?? `function ${f.index}`;
    const path = pathOf(name);
    return { ...f, name, crate: path[0], module: path.slice(0, depth).join('::') };
  });
  return {
    total: bytes.length,
    sections: all.map((s) => ({ key: s.name ? `custom ${s.name}` : SECTION_NAMES[s.id], size: s.size })),
    functions: functions.sort((a, b) => b.size - a.size),
    crates: sums(functions.map((f) => ({ key: f.crate, size: f.size }))),
    modules: sums(functions.map((f) => ({ key: f.module, size: f.size }))),
    data: data ? dataSegments(bytes, data) : [],
  };
}

const SECTION_NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'data count'];

function table(title, rows, total) {
  console.log(`\n${title}`);
  for (const row of rows) {
    const share = ((100 * row.size) / total).toFixed(1).padStart(5);
    const count = row.count === undefined ? '' : ` (${row.count})`;
    console.log(`${String(row.size).padStart(9)} ${share}%  ${row.key ?? row.name}${count}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top = '25', depth = '2'] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node scripts/wasm-sizes.mjs MODULE.wasm [TOP] [DEPTH]');
    process.exit(2);
  }
  const p = profile(readFileSync(file), Number(depth));
  console.log(`${file}: ${p.total} bytes, ${p.functions.length} functions`);
  table('Sections', p.sections, p.total);
  table('Crates (function bodies)', p.crates, p.total);
  table(`Module paths to ${depth} segments`, p.modules.slice(0, Number(top) * 2), p.total);
  table(`Largest ${top} functions`, p.functions.slice(0, Number(top)), p.total);
  console.log(`\nData: ${p.data.length} segments, ${p.data.reduce((a, b) => a + b, 0)} bytes`);
}
