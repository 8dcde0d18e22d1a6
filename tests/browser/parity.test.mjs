// The same scenario and seed give the same summary in the browser (wasm)
// as natively (the release command line), number for number.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, nativeRun } from './lib.mjs';

const SCENARIOS = [
  'duration_s=10',
  'policy=power-of-d&balancers=3&staleness_ms=20&subset_size=5&duration_s=10',
  'policy=p2c-piggyback&service=lognormal&demand=spike&clients=200&seed=3&duration_s=5',
  'servers=100&slots=2&load=1.2&queue_timeout_ms=50&policy=repick&service=pareto&seed=7&duration_s=5',
  'policy=fdb-load-balance&balancers=2&datacenters=2&failures=1s:slow:0:x=0.2,2s:down:3:for=2s&seed=5&duration_s=6',
  'policy=fdb-basic&failures=1s:fast-fail:2:p=0.5,2s:flap:4:period=200ms&seed=2&duration_s=5',
];

let server;
let browser;
let page;
before(async () => {
  server = await serveDist();
  browser = await launch();
  ({ page } = await openApp(browser, server.url));
  await page.click('#play');
});
after(async () => {
  await browser?.close();
  await server?.close();
});

for (const hash of SCENARIOS) {
  test(`same summary in the browser and natively: ${hash}`, async () => {
    const browserSummary = JSON.parse(await page.evaluate((hash) => window.wasmBindings.summary_json(hash), hash));
    const native = nativeRun(hash);
    assert.ok(native.summary.events > 1000, 'the scenario does something');
    assert.deepEqual(browserSummary, native.summary);
  });
}
