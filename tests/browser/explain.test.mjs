// The explainer (explain.html): it loads without a console error; every
// section's simulation runs once scrolled into view, with its sentences
// read back from live numbers; and every claim its prose makes
// (data-claim) holds at the page's own seed after 30 simulated seconds.
// tests/explainer_claims.rs checks the same claims natively over several seeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { browser, server, useBrowser, openApp, screenshot, skipQuestion, slideTo, ARTIFACTS } from './lib.mjs';

useBrowser();

const SIMULATED_MS = 30_000;

/** The sections with a simulation: their ids, claims and views' indices. */
const sections = (page) => page.evaluate(() => {
  const roots = [...document.querySelectorAll('[data-lbsim]')];
  return [...document.querySelectorAll('section[data-claim]')].map((section) => ({
    id: section.id,
    claim: section.dataset.claim,
    view: roots.indexOf(section.querySelector('[data-lbsim]')),
    root: section.querySelector('[data-lbsim]').id,
  }));
});

const topologyPixels = (page, root) => page.evaluate((id) => {
  const canvas = document.getElementById(`${id}-topology`);
  return canvas.toDataURL();
}, root);

test('every section of the explainer runs once scrolled into view, and says what it shows', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1280, height: 900 });
  const all = await sections(page);
  // Every section with a simulation has a claim: the chapters are the page's.
  const simulations = await page.evaluate(() => document.querySelectorAll('section [data-lbsim="embed"]').length);
  assert.ok(all.length > 0);
  assert.equal(all.length, simulations);
  for (const { id, view, root } of all) {
    await page.evaluate((id) => document.getElementById(id).querySelector('.sim').scrollIntoView({ block: 'center' }), id);
    // A chapter that asks first runs once answered (twins.test.mjs checks the question).
    await skipQuestion(page, id);
    await page.waitForFunction((i) => window.lbsim.views()[i].onScreen() && window.lbsim.views()[i].simTime() > 300, view);
    const before = await topologyPixels(page, root);
    await page.waitForTimeout(400);
    assert.notEqual(await topologyPixels(page, root), before, `${id}: the picture did not change`);
    // Its sentences are written from the run so far (after a second of
    // wall time at most), not typed in.
    await page.waitForFunction((i) => window.lbsim.views()[i].readback().length > 0, view);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('each claim of the explainer holds at its default seed', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1280, height: 900 });
  for (const { id, claim, view } of await sections(page)) {
    // In one task, so that no animation frame runs in between.
    const { time, verdicts } = await page.evaluate(({ i, claim, ms }) => {
      const hooks = window.lbsim.views()[i];
      hooks.advance(ms - hooks.simTime());
      const verdicts = claim.split(';').filter((c) => c.trim()).map((c) => JSON.parse(hooks.claim(c)));
      return { time: hooks.simTime(), verdicts };
    }, { i: view, claim, ms: SIMULATED_MS });
    assert.ok(Math.abs(time - SIMULATED_MS) < 1e-3, `${id}: advanced to ${time} ms`);
    for (const verdict of verdicts) {
      assert.ok(verdict.holds, `${id}: ${verdict.claim} (${verdict.left} against ${verdict.right})`);
    }
  }
  // The twin runs on the same arrivals: a section compared with a twin
  // whose policy differs saw exactly as many sessions start.
  const twins = await page.evaluate(() => window.lbsim.views()
    .map((v) => [JSON.parse(v.summary()), v.versusSummary() && JSON.parse(v.versusSummary())])
    .filter(([, twin]) => twin)
    .map(([a, b]) => [a.counts.sessions_started, b.counts.sessions_started]));
  assert.ok(twins.length >= 4);
  for (const [a, b] of twins) assert.equal(a, b);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a claim that is not well formed, or reads a twin a section lacks, is an error', async () => {
  const { page } = await openApp(browser, `${server.url}explain.html`, { width: 1280, height: 900 });
  const error = (text) => page.evaluate((text) => {
    try {
      window.lbsim.views()[0].claim(text);
      return null;
    } catch (e) {
      return e.message;
    }
  }, text);
  assert.match(await error('queue_p98 < 1'), /`queue_p98` is not a figure/);
  assert.match(await error('queue_p99 < queue_p99@versus'), /no versus twin/);
  await page.context().close();
});

test('the explainer at desktop and phone widths, light and dark', async () => {
  for (const [width, height, colorScheme] of [[1280, 900, 'light'], [360, 780, 'light'], [1280, 900, 'dark'], [360, 780, 'dark']]) {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height, colorScheme });
    await page.evaluate(() => document.getElementById('sim-power-of-two').scrollIntoView({ block: 'center' }));
    await skipQuestion(page, 'power-of-two');
    await page.waitForFunction(() => window.lbsim.views()[4].simTime() > 2000);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${width} px: the page scrolls sideways by ${overflow} px`);
    await screenshot(page, `explain-${width}-${colorScheme}-full`);
    await page.screenshot({ path: join(ARTIFACTS, `explain-${width}-${colorScheme}.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test("chapter 2, its spike over, shows the whole run's figures, labelled so, and says what a small spike collected", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  await page.evaluate(() => document.querySelector('#sim-spike').scrollIntoView({ block: 'center' }));
  const slider = page.locator('#sim-spike-clients');
  await slider.focus();
  while (await slider.getAttribute('aria-valuetext') !== '5') await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#spike .play').textContent === 'Replay', null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  const strip = await page.evaluate(() => {
    const readouts = document.querySelector('#sim-spike .readouts');
    return { label: readouts.querySelector('.span-words').checkVisibility() && readouts.querySelector('.span-words').textContent, throughput: document.getElementById('sim-spike-throughput').textContent };
  });
  assert.equal(strip.label, 'Whole run:', 'the strip says its figures are the whole run\'s');
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-spike'));
  const summary = await page.evaluate((i) => JSON.parse(window.lbsim.views()[i].summary()), index);
  assert.equal(strip.throughput, String(Math.round(summary.throughput)), 'the whole run\'s throughput, not its last second\'s');
  const said = await page.evaluate((i) => window.lbsim.views()[i].readback(), index);
  assert.ok(said.includes('Only 50 requests completed, fewer than the 200 these figures need to mean much: more clients make a bigger spike.'), said);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 2's clients slider is the one thing its chapter names Clients, so asking for it by name finds it, not the picture", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  await page.evaluate(() => document.querySelector('#sim-spike').scrollIntoView({ block: 'center' }));
  const named = page.locator('#spike').getByLabel('Clients');
  assert.equal(await named.count(), 1, 'one element of chapter 2 is named Clients');
  assert.equal(await named.getAttribute('id'), 'sim-spike-clients');
  assert.match(await page.locator('#sim-spike-topology').getAttribute('aria-label'), /^Picture of the run: /);
  // The chapter opens at 200 and invites the reader up to 500.
  await named.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await named.getAttribute('aria-valuetext'), '500');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 2's session chart draws the spike's sessions once it is over, however few the clients", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  await page.evaluate(() => document.querySelector('#sim-spike').scrollIntoView({ block: 'center' }));
  // The reader moves the clients down to 50: a
  // spike of 50 sessions, fewer than a curve waits for while more may come.
  const slider = page.locator('#sim-spike-clients');
  await slideTo(page, slider, '50', 'ArrowLeft');
  await page.waitForFunction(() => document.querySelector('#spike .play').textContent === 'Replay', null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  const legend = await page.locator('#spike [id$="current-label"]').textContent();
  assert.equal(legend, 'sessions since the start', 'the curve of all 50 sessions, not "collecting… 50 sessions"');
  assert.equal(await page.locator('#spike .pin').isEnabled(), true, 'a drawn curve can be pinned');
  assert.deepEqual(errors, []);
  await page.context().close();
});

