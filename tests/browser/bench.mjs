// Benchmarks of the browser app, printing their figures:
//  - engine throughput (events per second) in headless Chromium against the
//    native command line, and their ratio (target at least 0.6);
//  - cost per frame of simulation plus drawing, median and p95, at the
//    default settings and at 1,000 servers with 20,000 requests per
//    simulated second (targets: median at most 8 ms, p95 at most 16 ms);
//  - total transfer size of the built app, gzipped (target at most 300 KB).
// Expects dist/ (trunk build --release --offline) and target/release/lbsim.
import { readdir, readFile } from 'node:fs/promises';
import { join, extname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { serveDist, launch, openApp, nativeRun, DIST } from './lib.mjs';

const THROUGHPUT = [
  ['default, 300 simulated s', 'duration_s=300'],
  ['1,000 servers at 20,000 req/s, 60 simulated s', 'servers=1000&slots=1&load=0.4&clients=1000&duration_s=60'],
];
const FRAMES = [
  ['default settings', ''],
  ['1,000 servers, 20,000 req/s', 'servers=1000&slots=1&load=0.4&clients=1000'],
];
const RUNS = 5;
const FRAME_SECONDS = Number(process.env.LBSIM_BENCH_FRAME_SECONDS ?? 15);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const fmt = (x, digits = 1) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok) => (ok ? 'meets target' : 'MISSES TARGET');

const server = await serveDist();
const browser = await launch();
try {
  console.log('Engine throughput (median of %d runs each, interleaved)', RUNS);
  const { page } = await openApp(browser, server.url);
  await page.click('#play');
  for (const [name, hash] of THROUGHPUT) {
    const wasmRates = [];
    const nativeRates = [];
    for (let run = 0; run < RUNS; run++) {
      const measured = await page.evaluate((hash) => {
        const start = performance.now();
        const summary = JSON.parse(window.wasmBindings.summary_json(hash));
        return summary.events / ((performance.now() - start) / 1000);
      }, hash);
      wasmRates.push(measured);
      const { summary, wall_s } = nativeRun(hash);
      nativeRates.push(summary.events / wall_s);
    }
    const wasm = quantile(wasmRates.sort((a, b) => a - b), 0.5);
    const native = quantile(nativeRates.sort((a, b) => a - b), 0.5);
    const ratio = wasm / native;
    console.log(
      `  ${name}: Chromium ${fmt(wasm / 1e6, 2)} M events/s, native ${fmt(native / 1e6, 2)} M events/s, ratio ${fmt(ratio, 2)} (target ≥ 0.6: ${verdict(ratio >= 0.6)})`,
    );
  }
  await page.context().close();

  console.log(`Cost per frame, simulation plus drawing (${FRAME_SECONDS} s of frames after 3 s of warm-up)`);
  for (const [name, hash] of FRAMES) {
    const { page } = await openApp(browser, server.url, { hash });
    await page.waitForTimeout(3000);
    await page.evaluate(() => window.lbsim.frameCosts());
    const simStart = await page.evaluate(() => window.lbsim.simTime());
    await page.waitForTimeout(FRAME_SECONDS * 1000);
    const costs = Array.from(await page.evaluate(() => window.lbsim.frameCosts())).sort((a, b) => a - b);
    const simulated = (await page.evaluate(() => window.lbsim.simTime())) - simStart;
    const median = quantile(costs, 0.5);
    const p95 = quantile(costs, 0.95);
    console.log(
      `  ${name}: ${costs.length} frames (${fmt(costs.length / FRAME_SECONDS, 0)} per s), median ${fmt(median, 2)} ms, p95 ${fmt(p95, 2)} ms, max ${fmt(costs.at(-1), 2)} ms; ${fmt(simulated / 1000, 1)} simulated s (targets median ≤ 8 ms, p95 ≤ 16 ms: ${verdict(median <= 8 && p95 <= 16)})`,
    );
    await page.context().close();
  }

  console.log('Transfer size of the built app, gzipped (level 9)');
  let total = 0;
  for (const file of (await readdir(DIST)).sort()) {
    if (!['.html', '.js', '.wasm', '.css'].includes(extname(file))) continue;
    const raw = await readFile(join(DIST, file));
    const gzipped = gzipSync(raw, { level: 9 }).length;
    total += gzipped;
    console.log(`  ${file}: ${fmt(raw.length / 1024)} KB, gzipped ${fmt(gzipped / 1024)} KB`);
  }
  console.log(`  total gzipped: ${fmt(total / 1024)} KB (target ≤ 300 KB: ${verdict(total <= 300 * 1024)})`);
} finally {
  await browser.close();
  await server.close();
}
