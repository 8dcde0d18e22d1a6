// Ten minutes of running at the largest settings the sliders offer, at 10×
// speed, must grow neither the WebAssembly memory nor the JS heap by more
// than 10 MB. Slow, so it runs only with LBSIM_SOAK=1 (about 10.5 minutes);
// LBSIM_SOAK_SECONDS shortens it for a trial.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, screenshot } from './lib.mjs';

const SECONDS = Number(process.env.LBSIM_SOAK_SECONDS ?? 600);
/** Measured growth starts after this warm-up, once buffers reach their size. */
const WARM_UP_SECONDS = 30;
const LIMIT_BYTES = 10 * 1024 * 1024;
const LARGEST =
  'servers=1000&slots=10&clients=10000&balancers=1000&load=0.95&queue_timeout_ms=100&policy=p2c-piggyback&speed=10';

test('memory stays flat over ten minutes at the largest settings', { skip: !process.env.LBSIM_SOAK }, async () => {
  const server = await serveDist();
  const browser = await launch();
  try {
    const { page, errors } = await openApp(browser, server.url, { hash: LARGEST });
    const cdp = await page.context().newCDPSession(page);
    const measure = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const wasm = await page.evaluate(() => window.lbsim.wasmMemoryBytes());
      const simulated = await page.evaluate(() => window.lbsim.simTime());
      return { heap: usedSize, wasm, simulated };
    };
    const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
    await page.waitForTimeout(WARM_UP_SECONDS * 1000);
    const start = await measure();
    console.log(`after ${WARM_UP_SECONDS} s: wasm ${mb(start.wasm)} MB, JS heap ${mb(start.heap)} MB, ${(start.simulated / 1000).toFixed(0)} simulated s`);
    let latest = start;
    for (let elapsed = WARM_UP_SECONDS; elapsed < SECONDS; ) {
      const wait = Math.min(60, SECONDS - elapsed);
      await page.waitForTimeout(wait * 1000);
      elapsed += wait;
      latest = await measure();
      console.log(`after ${elapsed} s: wasm ${mb(latest.wasm)} MB, JS heap ${mb(latest.heap)} MB, ${(latest.simulated / 1000).toFixed(0)} simulated s`);
    }
    await screenshot(page, 'soak-end');
    const wasmGrowth = latest.wasm - start.wasm;
    const heapGrowth = latest.heap - start.heap;
    console.log(`growth over ${SECONDS - WARM_UP_SECONDS} s: wasm ${mb(wasmGrowth)} MB, JS heap ${mb(heapGrowth)} MB`);
    assert.ok(latest.simulated > start.simulated, 'the simulation kept running');
    assert.ok(wasmGrowth <= LIMIT_BYTES, `wasm memory grew by ${mb(wasmGrowth)} MB`);
    assert.ok(heapGrowth <= LIMIT_BYTES, `JS heap grew by ${mb(heapGrowth)} MB`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
