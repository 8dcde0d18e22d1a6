// Benchmarks of the browser app, printing their figures:
//  - engine throughput (events per CPU second) in headless Chromium against
//    the native command line, and their ratio (target at least 0.6);
//    CPU time, not wall time, so that other work on a shared machine slows
//    neither side's figure;
//  - cost per frame of simulation plus drawing, median and p95, at the
//    default settings and at 1,000 servers with 20,000 requests per
//    simulated second (targets: median at most 8 ms, p95 at most 16 ms);
//  - time from navigation to the first drawn picture, of an embed and of
//    the explainer's first chapter;
//  - the same with the six-embed demo page wholly in view (each embed's
//    frames, and their sum as a bound on the page's frame), and while the
//    explainer scrolls from top to bottom (every view's frames together);
//  - chapter 4's frames while its seeds run behind it (seeds=20) after the
//    reader answers, against its frames once all twenty dots are in (the
//    same view playing with nothing behind it), and the times to ten and
//    twenty dots;
//  - load times as a reader meets them: each page served with gzip and with
//    brotli under Chromium's network and CPU emulation (desktop 10 Mbps /
//    40 ms; slow 4G 1.6 Mbps / 150 ms with the CPU 4× slower), the time to
//    the outline and to the first live picture, medians of three loads
//    (load.mjs);
//  - transfer size of each page, gzipped, its module counted once (targets:
//    the embed page, which a blog post loads, at most 250 KB; any other
//    page at most 300 KB).
// Serves dist-test/ (the test build: throughput, frames and embeds read its
// hooks) unless LBSIM_BENCH_DIST names another build: `dist` (trunk build
// --release --offline, as published) or any tree's, e.g.
// /work/other/dist, so that two commits' production builds are measured by
// one script; first, scroll, loads and sizes need no hooks. Sizes read
// dist/; throughput needs target/release/lbsim.
// LBSIM_BENCH=throughput,sizes (any of throughput, frames, first, embeds, scroll,
// spread, loads, sizes) runs only those parts, for comparing builds quickly.
import { readdir, readFile } from 'node:fs/promises';
import { join, extname, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { serveDist, launch, openApp, DIST, TEST_DIST, ROOT, CLI } from './lib.mjs';
import { measureLoads } from './load.mjs';

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

/**
 * An init script timing every requestAnimationFrame callback and summing
 * those of one frame (they share its timestamp): the page's frame loop
 * draws every view in one callback, so this is its cost in any build,
 * hooks or not. `window.benchFrameCosts()` takes the costs so far.
 */
function timeFrames() {
  const costs = new Map();
  window.benchFrameCosts = () => {
    const taken = [...costs.values()];
    costs.clear();
    return taken;
  };
  const request = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    request((now) => {
      const started = performance.now();
      try {
        callback(now);
      } finally {
        costs.set(now, (costs.get(now) ?? 0) + performance.now() - started);
      }
    });
}

const PARTS = ['throughput', 'frames', 'first', 'embeds', 'scroll', 'spread', 'loads', 'sizes'];
const LOAD_RUNS = 3;
const chosen = (process.env.LBSIM_BENCH ?? PARTS.join(',')).split(',').map((part) => part.trim());
for (const part of chosen) {
  if (!PARTS.includes(part)) throw new Error(`LBSIM_BENCH: \`${part}\` is not one of ${PARTS.join(', ')}`);
}
const runs = (part) => chosen.includes(part);
const BUILD = process.env.LBSIM_BENCH_DIST ? resolve(ROOT, process.env.LBSIM_BENCH_DIST) : TEST_DIST;
const HOOKED = ['throughput', 'frames', 'embeds'].filter(runs);
if (BUILD !== TEST_DIST && HOOKED.length > 0) {
  throw new Error(`LBSIM_BENCH: ${HOOKED.join(', ')} read the test hooks, which only dist-test has; choose first, scroll, loads or sizes with LBSIM_BENCH_DIST`);
}
// The embed page is what a blog post pays for; the others may weigh more.
const budgetKb = (page) => (page === 'embed.html' ? 250 : 300);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const fmt = (x, digits = 1) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (ok) => (ok ? 'meets target' : 'MISSES TARGET');
const stats = (costs) => {
  const sorted = Array.from(costs).sort((a, b) => a - b);
  return { n: sorted.length, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1) };
};
const line = ({ n, median, p95, max }) =>
  `${n} frames, median ${fmt(median, 2)} ms, p95 ${fmt(p95, 2)} ms, max ${fmt(max, 2)} ms`;

/**
 * Engine events per CPU second of the page's main thread (the DevTools
 * protocol's ThreadTime) for a headless run of `hash`.
 */
async function wasmRate(page, devtools, hash) {
  const threadTime = async () =>
    (await devtools.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ThreadTime').value;
  const before = await threadTime();
  const events = await page.evaluate((hash) => JSON.parse(window.wasmBindings.summary_json(hash)).events, hash);
  return events / ((await threadTime()) - before);
}

/** The command line's events per CPU second (user + system, as bash's `times` gives them) for `hash`. */
function nativeRate(hash) {
  const sets = hash.split('&').filter(Boolean).flatMap((entry) => ['--set', entry]);
  const printed = execFileSync('bash', ['-c', '"$@" && times', 'bash', CLI, 'run', 'default', ...sets, '--json'], {
    encoding: 'utf8',
  });
  const lines = printed.trimEnd().split('\n');
  // `times` ends with the children's user and system time: "0m1.234s 0m0.010s".
  const seconds = [...lines.at(-1).matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  const { summary } = JSON.parse(lines.slice(0, -2).join('\n'));
  return summary.events / (seconds[0] + seconds[1]);
}

const server = await serveDist({ dir: BUILD });
const browser = await launch();
console.log(`Build measured: ${BUILD}`);
try {
  if (runs('throughput')) {
    console.log('Engine throughput per CPU second (median of %d runs each, interleaved)', RUNS);
    const { page } = await openApp(browser, server.url);
    await page.click('#play');
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('Performance.enable');
    for (const [name, hash] of THROUGHPUT) {
      const wasmRates = [];
      const nativeRates = [];
      for (let run = 0; run < RUNS; run++) {
        wasmRates.push(await wasmRate(page, devtools, hash));
        nativeRates.push(nativeRate(hash));
      }
      const wasm = quantile(wasmRates.sort((a, b) => a - b), 0.5);
      const native = quantile(nativeRates.sort((a, b) => a - b), 0.5);
      const ratio = wasm / native;
      console.log(
        `  ${name}: Chromium ${fmt(wasm / 1e6, 2)} M events per CPU s, native ${fmt(native / 1e6, 2)} M, ratio ${fmt(ratio, 2)} (target ≥ 0.6: ${verdict(ratio >= 0.6)})`,
      );
    }
    await page.context().close();
  }

  if (runs('frames')) {
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
  }

  if (runs('embeds')) {
    console.log(`Six embeds wholly in view (embeds.html in a 1280 × 4200 window, ${FRAME_SECONDS} s after 3 s)`);
    {
      const context = await browser.newContext({ viewport: { width: 1280, height: 4200 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(`${server.url}embeds.html`);
      const frames = () => page.frames().filter((f) => f.url().includes('embed.html'));
      for (const frame of frames()) await frame.waitForFunction(() => window.lbsim !== undefined);
      await page.waitForTimeout(3000);
      // The spike embed starts paused: play it, so that all six run.
      for (const frame of frames()) {
        if ((await frame.textContent('.play')) === 'Play') await frame.click('.play');
        await frame.evaluate(() => window.lbsim.frameCosts());
      }
      await page.waitForTimeout(FRAME_SECONDS * 1000);
      let medians = 0;
      let p95s = 0;
      for (const [index, frame] of frames().entries()) {
        const each = stats(await frame.evaluate(() => window.lbsim.frameCosts()));
        medians += each.median;
        p95s += each.p95;
        console.log(`  embed ${index + 1}: ${line(each)}`);
      }
      console.log(
        `  the six together (sum of their medians, of their p95s): median ≤ ${fmt(medians, 2)} ms, p95 ≤ ${fmt(p95s, 2)} ms (targets median ≤ 8 ms, p95 ≤ 16 ms: ${verdict(medians <= 8 && p95s <= 16)})`,
      );
      await context.close();
    }
  }

  if (runs('first')) {
    console.log('Time from navigation to the first drawn picture (median of %d loads; the module is served from memory)', RUNS);
    for (const [name, path, selector, width, height] of [
      ['an embed in a 680 × 400 frame', 'embed.html', '.topology', 680, 400],
      ["the explainer's first chapter", 'explain.html', '#sim-one-server .topology', 1440, 900],
    ]) {
      const times = [];
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
        // Polls each animation frame, from the start, for the first
        // non-transparent pixel of the picture.
        await context.addInitScript((selector) => {
          const poll = () => {
            const canvas = document.querySelector(selector);
            if (canvas && canvas.width > 0 && canvas.height > 0) {
              const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
              for (let i = 3; i < data.length; i += 64) {
                if (data[i] !== 0) {
                  window.firstDrawnMs = performance.now();
                  return;
                }
              }
            }
            requestAnimationFrame(poll);
          };
          requestAnimationFrame(poll);
        }, selector);
        const page = await context.newPage();
        await page.goto(server.url + path);
        await page.waitForFunction(() => window.firstDrawnMs !== undefined, null, { timeout: 30_000 });
        times.push(await page.evaluate(() => window.firstDrawnMs));
        await context.close();
      }
      times.sort((a, b) => a - b);
      console.log(`  ${name}: median ${fmt(quantile(times, 0.5), 0)} ms (runs: ${times.map((t) => fmt(t, 0)).join(', ')})`);
    }
  }

  if (runs('scroll')) {
    console.log(
      'Scrolling the explainer from top to bottom (1280 × 900, 20 s; a frame costs its animation-frame callbacks together, timed by the page)',
    );
    {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
      await context.addInitScript(timeFrames);
      const page = await context.newPage();
      await page.goto(`${server.url}explain.html`);
      await page.waitForSelector('#sim-one-server .topology');
      await page.waitForTimeout(2000);
      await page.evaluate(() => window.benchFrameCosts());
      await page.evaluate(async () => {
        const steps = 400;
        const end = document.documentElement.scrollHeight - window.innerHeight;
        for (let i = 1; i <= steps; i++) {
          window.scrollTo(0, (end * i) / steps);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      const costs = await page.evaluate(() => window.benchFrameCosts());
      const all = stats(costs);
      const total = costs.reduce((a, b) => a + b, 0);
      console.log(`  ${line(all)}, ${fmt(total / 1000, 2)} s in all (targets median ≤ 8 ms, p95 ≤ 16 ms: ${verdict(all.median <= 8 && all.p95 <= 16)})`);
      await context.close();
    }
  }

  if (runs('spread')) {
    console.log(
      "Chapter 4 answered at 1280 × 900: the page's frames while its twenty seeds run behind it, then 10 s once all are in",
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    await context.addInitScript(timeFrames);
    const page = await context.newPage();
    await page.goto(`${server.url}explain.html#repick`);
    const root = '#sim-repick';
    await page.locator(`${root} .spread`).waitFor({ timeout: 30_000 });
    await page.locator(root).scrollIntoViewIfNeeded();
    await page.waitForTimeout(2000);
    await page.locator(`${root} .question button:not([hidden])`).first().click();
    await page.evaluate(() => window.benchFrameCosts());
    const answered = Date.now();
    const dotsIn = (n) => page.waitForFunction(([r, n]) => document.querySelectorAll(`${r} .spread-dot`).length >= n,
      [root, n], { timeout: 300_000, polling: 200 });
    await dotsIn(10);
    const ten = (Date.now() - answered) / 1000;
    await dotsIn(20);
    const twenty = (Date.now() - answered) / 1000;
    const running = stats(await page.evaluate(() => window.benchFrameCosts()));
    await page.waitForTimeout(10_000);
    const after = stats(await page.evaluate(() => window.benchFrameCosts()));
    console.log(`  ten dots ${fmt(ten, 1)} s after the answer, twenty ${fmt(twenty, 1)} s`);
    console.log(`  while the seeds run: ${line(running)}`);
    console.log(`  once all are in:     ${line(after)}`);
    await context.close();
  }

  if (runs('loads')) await measureLoads(browser, { runs: LOAD_RUNS });

  if (runs('sizes')) {
    console.log('Transfer size of each page, gzipped (level 9), with its module and the stylesheet');
    const gzipped = async (file) => gzipSync(await readFile(join(DIST, file)), { level: 9 }).length;
    const sum = async (files) => (await Promise.all(files.map(gzipped))).reduce((a, b) => a + b, 0);
    // The lab loads lbsim-lab; the other pages, lbsim-web.
    const files = (module) => [`${module}.js`, `${module}_bg.wasm`, 'style.css'];
    const moduleOf = (page) => (page === 'index.html' ? 'lbsim-lab' : 'lbsim-web');
    for (const file of [...files('lbsim-web'), ...files('lbsim-lab').slice(0, 2)]) {
      console.log(`  ${file}: gzipped ${fmt((await gzipped(file)) / 1024)} KB`);
    }
    for (const page of (await readdir(DIST)).filter((f) => extname(f) === '.html').sort()) {
      const total = (await sum(files(moduleOf(page)))) + (await gzipped(page));
      const budget = budgetKb(page);
      console.log(`  ${page}: ${fmt(total / 1024)} KB (target ≤ ${budget} KB: ${verdict(total <= budget * 1024)})`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
