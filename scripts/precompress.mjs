#!/usr/bin/env node
// Writes FILE.br and FILE.gz beside each file of a built directory
// (dist/ by default), at the strongest settings, so that a host serving
// precompressed files (nginx gzip_static and brotli_static, Caddy's
// precompressed, Netlify, Cloudflare Pages) sends them as they are; see
// docs/embedding.md. Node's zlib has both encoders: nothing is downloaded.
// Trunk.toml runs it after each build; the benchmark's server
// compresses with the same function.
//   node scripts/precompress.mjs [DIR]
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

/** The encodings written, by the name HTTP gives them and the file suffix. */
export const ENCODINGS = { br: '.br', gzip: '.gz' };

/** Files that are already compressed copies. */
const SKIPPED = new Set(Object.values(ENCODINGS));

/** `bytes` compressed with `encoding` (`br` or `gzip`), at its strongest. */
export function compress(bytes, encoding) {
  if (encoding === 'br') {
    return brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
  }
  if (encoding === 'gzip') return gzipSync(bytes, { level: 9 });
  throw new Error(`encoding \`${encoding}\`: expected br or gzip`);
}

/** Writes the compressed copies of every file in `dir`; returns their names. */
export async function precompress(dir) {
  const written = [];
  for (const name of (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)) {
    if (SKIPPED.has(extname(name))) continue;
    const bytes = await readFile(join(dir, name));
    for (const [encoding, suffix] of Object.entries(ENCODINGS)) {
      await writeFile(join(dir, name + suffix), compress(bytes, encoding));
      written.push(name + suffix);
    }
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? 'dist';
  const written = await precompress(dir);
  console.log(`precompress: ${written.length} files written in ${dir}`);
}
