// The script API (tests/browser/api.html, which is the README's example):
// mount a view on an element, drive it, read its summary, run a scenario
// headless; bad input raises an Error worded as the command line words it;
// a mounted view out of sight uses no simulated time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { browser, server, useBrowser, openApp, nativeRun, CLI, drawnFraction } from './lib.mjs';

useBrowser();

async function openExample() {
  const opened = await openApp(browser, `${server.url}api.html`, { width: 1280, height: 800 });
  await opened.page.waitForFunction(() => window.example !== undefined);
  return opened;
}

/** What the command line prints for a bad `--set`, without its name. */
function nativeError(entry) {
  try {
    execFileSync(CLI, ['run', 'default', '--set', entry], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    return error.stderr.trim().replace(/^lbsim: /, '');
  }
  throw new Error(`${entry} was accepted`);
}

test('a mounted view plays, pauses, steps, resets, takes settings and gives its summary', async () => {
  const { page, errors } = await openExample();
  const state = () => page.evaluate(() => ({ time: window.example.simTime(), policy: window.example.summary().policy }));
  assert.deepEqual(await state(), { time: 0, policy: 'power-of-d' }, 'autoplay: false starts paused');
  assert.equal(await page.locator('#host .caption').textContent(), 'Power of two at 95% load');
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#host .control select, #host .control input')].map((e) => e.id)),
    ['host-policy', 'host-load']);

  await page.evaluate(() => window.example.play());
  await page.waitForFunction(() => window.example.simTime() > 500);
  await page.evaluate(() => window.example.pause());
  const paused = (await state()).time;
  await page.waitForTimeout(300);
  assert.equal((await state()).time, paused, 'pause stops the clock');
  await page.evaluate(() => window.example.step());
  assert.ok((await state()).time > paused, 'step advances it');

  await page.evaluate(() => window.example.set('policy', 'random'));
  assert.equal((await state()).policy, 'random');
  assert.equal(await page.inputValue('#host-policy'), 'random', 'the control shows what the script set');
  await page.evaluate(() => window.example.set('server_speeds', [1, 2]));
  await page.evaluate(() => window.example.reset());
  assert.equal((await state()).time, 0);
  await page.evaluate(() => window.example.advance(2000));
  const summary = await page.evaluate(() => window.example.summary());
  assert.equal(summary.simulated_s, 2);
  assert.ok(summary.counts.completed > 0 && typeof summary.queue_ms.p99 === 'number', 'a plain object');
  assert.ok((await drawnFraction(page, 'host-topology')) > 0.01);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('run() gives the same numbers as the command line for the same seed', async () => {
  const { page } = await openExample();
  const browserSummary = await page.evaluate(() => window.api.run({ policy: 'random', servers: 20, load: 0.95, seed: 7 }, 10));
  const native = nativeRun('policy=random&servers=20&load=0.95&seed=7&duration_s=10');
  const figures = (s) => [s.trace_hash, s.events, s.counts.completed, s.queue_ms.p99, s.latency_ms.mean];
  assert.deepEqual(figures(browserSummary), figures(native.summary ?? native));
  assert.match(await page.textContent('#figure'), /^Random, after 10 simulated seconds: p99 queue time \d+\.\d ms\.$/);
  await page.context().close();
});

test('bad input raises an Error naming the field and what it allows, as the command line says it', async () => {
  const { page } = await openExample();
  const thrown = (code) => page.evaluate((code) => {
    try {
      new Function('api', 'example', code)(window.api, window.example);
      return null;
    } catch (error) {
      return { isError: error instanceof Error, message: error.message };
    }
  }, code);
  const cases = [
    ["api.run({ servers: 0 })", 'servers=0'],
    ["api.run({ polcy: 'random' })", 'polcy=random'],
    ["api.run({ policy: 'fastest' })", 'policy=fastest'],
    ["example.set('load', 7)", 'load=7'],
    ["api.mount(document.body, { queue_timeout_ms: -1 })", 'queue_timeout_ms=-1'],
  ];
  for (const [code, entry] of cases) {
    const error = await thrown(code);
    assert.ok(error?.isError, `${code} did not throw an Error`);
    assert.equal(error.message, nativeError(entry), code);
  }
  const option = await thrown("api.mount(document.body, {}, { charts: ['pie'] })");
  assert.match(option.message, /field `charts`: `pie` is not allowed; expected "all", "none", or a comma-separated list of percentiles, clients, load/);
  const unknown = await thrown("api.mount(document.body, {}, { colour: 'red' })");
  assert.match(unknown.message, /option `colour` is not known; expected one of controls, charts/);
  const twice = await thrown("api.mount(document.getElementById('host'), {})");
  assert.match(twice.message, /already mounted/);
  const value = await thrown("example.set('servers', { many: true })");
  assert.match(value.message, /^field `servers`: `many:1` is not allowed; expected a whole number/);
  await page.context().close();
});

test('a view mounted out of sight uses no simulated time until scrolled into view', async () => {
  const { page, errors } = await openExample();
  await page.evaluate(() => { window.low = window.api.mount(document.getElementById('low'), { policy: 'random' }); });
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.low.simTime()), 0);
  await page.evaluate(() => document.getElementById('low').scrollIntoView());
  await page.waitForFunction(() => window.low.simTime() > 500);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => !window.lbsim.views()[1].onScreen());
  const away = await page.evaluate(() => window.low.simTime());
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.low.simTime()), away, 'it ran while out of sight');
  await page.evaluate(() => document.getElementById('low').scrollIntoView());
  await page.waitForFunction((away) => window.low.simTime() > away + 300, away);
  const resumed = await page.evaluate(() => window.low.simTime());
  assert.ok(resumed < away + 3000, 'it jumped ahead on resuming');

  await page.evaluate(() => window.low.destroy());
  assert.equal(await page.evaluate(() => document.getElementById('low').childElementCount), 0);
  assert.equal(await page.evaluate(() => window.lbsim.views().length), 1);
  assert.deepEqual(errors, []);
  await page.context().close();
});
