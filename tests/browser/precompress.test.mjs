// The build writes a brotli and a gzip copy beside each file of dist/
// (scripts/precompress.mjs, Trunk's post-build hook), each the file's
// bytes exactly, for hosts that serve precompressed files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DIST } from './lib.mjs';

test('every built file has a .br and a .gz copy holding its bytes', async () => {
  const names = await readdir(DIST);
  const originals = names.filter((name) => !['.br', '.gz'].includes(extname(name)));
  assert.ok(originals.includes('lbsim-web_bg.wasm'));
  for (const name of originals) {
    const bytes = await readFile(join(DIST, name));
    assert.ok(names.includes(`${name}.br`), `${name}.br is missing`);
    assert.ok(names.includes(`${name}.gz`), `${name}.gz is missing`);
    assert.ok(brotliDecompressSync(await readFile(join(DIST, `${name}.br`))).equals(bytes), `${name}.br differs`);
    assert.ok(gunzipSync(await readFile(join(DIST, `${name}.gz`))).equals(bytes), `${name}.gz differs`);
  }
});
