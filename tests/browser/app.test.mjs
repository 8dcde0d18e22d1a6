// End-to-end tests of the release build in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, drawnFraction, noticeSays, screenshot, hashEntries, summary } from './lib.mjs';

const CANVASES = ['topology', 'chart-percentiles', 'chart-clients', 'chart-load'];
/** Every control's element id (the inputs are named after their settings). */
const CONTROL_IDS = [
  'policy', 'staleness_ms', 'subset_size', 'balancers', 'load', 'demand', 'clients', 'servers', 'slots',
  'queue_timeout_ms', 'service', 'seed', 'speed', 'play', 'step', 'reset',
];

useBrowser();

const pause = (page) => page.click('#play');
const simTime = (page) => page.evaluate(() => window.lbsim.simTime());

/** Waits until the frame loop has had time to redraw the charts. */
const settle = (page) => page.waitForTimeout(1200);

test('the page loads with no console error and every canvas is drawn', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.waitForFunction(() => window.lbsim.simTime() > 2000);
  await settle(page);
  for (const id of CANVASES) {
    const drawn = await drawnFraction(page, id);
    assert.ok(drawn > 0.01, `#${id} is blank (${(drawn * 100).toFixed(2)}% of pixels drawn)`);
  }
  assert.match(await page.textContent('#p99'), /^\d/);
  await screenshot(page, 'default-light');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('dark theme follows the system setting', async () => {
  const { page, errors } = await openApp(browser, server.url, { colorScheme: 'dark' });
  await page.waitForFunction(() => window.lbsim.simTime() > 2000);
  await settle(page);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = background.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `dark background expected, got ${background}`);
  for (const id of CANVASES) assert.ok((await drawnFraction(page, id)) > 0.01, `#${id} is blank`);
  await screenshot(page, 'default-dark');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('power-of-two beats random on p99 queue time near capacity', async () => {
  const p99 = async (policy) => {
    const { page, errors } = await openApp(browser, server.url);
    await pause(page);
    if (policy !== 'random') {
      await page.selectOption('#policy', policy);
      assert.equal((await hashEntries(page)).get('policy'), policy, 'choosing a policy changes the hash');
    }
    const start = await simTime(page);
    await page.evaluate(() => window.lbsim.advance(20_000));
    const result = await summary(page);
    assert.equal(result.policy, policy);
    assert.ok(result.simulated_s * 1000 >= start + 20_000 - 1);
    await screenshot(page, `policy-${policy}`);
    assert.deepEqual(errors, []);
    await page.context().close();
    return result.queue_ms.p99;
  };
  const random = await p99('random');
  const powerOfTwo = await p99('power-of-d');
  assert.ok(powerOfTwo < 0.6 * random, `p99 queue time: power-of-d ${powerOfTwo} ms vs random ${random} ms`);
});

test('pause freezes simulated time and step advances it', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.waitForFunction(() => window.lbsim.simTime() > 500);
  await pause(page);
  assert.equal(await page.textContent('#play'), 'Play', 'the button offers to play');
  const paused = await simTime(page);
  await page.waitForTimeout(700);
  assert.equal(await simTime(page), paused, 'time moved while paused');
  await page.click('#step');
  const stepped = await simTime(page);
  assert.ok(stepped > paused, `step did not advance (${paused} → ${stepped})`);
  await page.waitForTimeout(500);
  assert.equal(await simTime(page), stepped, 'time moved after a step');
  await page.keyboard.press('s');
  assert.ok((await simTime(page)) > stepped, 'the s key steps');
  await page.click('#play');
  await page.waitForFunction((t) => window.lbsim.simTime() > t + 300, stepped + 1);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press(' ');
  assert.equal(await page.textContent('#play'), 'Play', 'space pauses');
  const spaced = await simTime(page);
  await page.waitForTimeout(300);
  assert.equal(await simTime(page), spaced, 'time moved after space paused');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a long gap between frames (a tab back from the background) causes no catch-up', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.waitForFunction(() => window.lbsim.simTime() > 500);
  const before = await simTime(page);
  // No frame can run while the page's main thread is busy for 3 s: the next
  // frame comes 3 s after the last, as when a hidden tab is shown again.
  await page.evaluate(() => {
    const end = performance.now() + 3000;
    while (performance.now() < end);
  });
  await page.waitForTimeout(300);
  const advanced = (await simTime(page)) - before;
  // At 1x: about 300 ms of frames plus one frame capped at 100 ms, not 3 s.
  assert.ok(advanced < 1000, `simulated ${advanced} ms over 3.3 s with a 3 s gap between frames`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('loading a hash restores every control', async () => {
  const wanted = {
    policy: 'p2c-piggyback', staleness_ms: '50', subset_size: '5', balancers: '3', load: '0.7',
    demand: 'continuous', clients: '50', servers: '20', slots: '4', queue_timeout_ms: '200',
    service: 'lognormal', seed: '42', speed: '2',
  };
  const hash = Object.entries(wanted).map(([k, v]) => `${k}=${v}`).join('&');
  const { page, errors } = await openApp(browser, server.url, { hash });
  for (const [key, value] of Object.entries(wanted)) {
    const shown = await page.evaluate((key) => {
      const input = document.getElementById(key);
      const output = document.getElementById(`${key}-value`);
      return { tag: input.tagName, value: input.value, text: output.textContent, valuetext: input.getAttribute('aria-valuetext') };
    }, key);
    if (shown.tag === 'SELECT' || key === 'seed') {
      assert.equal(shown.value, value, key);
    } else {
      assert.ok(shown.text.startsWith(value), `${key}: shows "${shown.text}", expected ${value}`);
    }
  }
  const entries = await hashEntries(page);
  for (const [key, value] of Object.entries(wanted)) assert.equal(entries.get(key), value, `hash keeps ${key}`);
  const result = await summary(page);
  assert.equal(result.seed, 42);
  assert.equal(result.policy, 'p2c-piggyback');
  await settle(page);
  await screenshot(page, 'restored-hash');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a malformed hash shows a notice naming each entry, and the simulation still runs', async () => {
  const hash = 'servers=abc&colour=blue&load=7&policy=power-of-d&nonsense';
  const { page, errors } = await openApp(browser, server.url, { hash });
  await noticeSays(page, ['servers=abc', 'using 10 instead', 'colour', 'load=7', 'using 0.9 instead', 'nonsense']);
  assert.equal(await page.locator('#notice strong').textContent(), 'Some settings in the link were not used as given.');
  assert.ok(await page.locator('#notice strong').isVisible());
  assert.equal(await page.inputValue('#policy'), 'power-of-d', 'valid entries still apply');
  const entries = await hashEntries(page);
  assert.equal(entries.get('servers'), '10');
  assert.equal(entries.get('load'), '0.9');
  assert.ok(!entries.has('colour'));
  const start = await simTime(page);
  await page.waitForFunction((t) => window.lbsim.simTime() > t + 500, start);
  await settle(page);
  assert.ok((await drawnFraction(page, 'topology')) > 0.01);
  await screenshot(page, 'malformed-hash');
  await page.click('#notice-dismiss');
  await page.locator('#notice').waitFor({ state: 'hidden' });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('at 360 px wide every control is reachable, by pointer and by keyboard', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 360, height: 740 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  for (const id of CONTROL_IDS) {
    const control = page.locator(`#${id}`);
    await control.scrollIntoViewIfNeeded();
    const box = await control.boundingBox();
    assert.ok(box && box.width > 0 && box.height > 0, `#${id} is not visible`);
    assert.ok(box.x >= 0 && box.x + box.width <= 360, `#${id} sticks out: ${JSON.stringify(box)}`);
  }
  const reached = new Set();
  await page.evaluate(() => document.activeElement?.blur());
  // Bounded: the lab has over eighty tab stops (seed is the 64th at 360 px).
  for (let i = 0; i < 150 && reached.size < CONTROL_IDS.length; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(() => document.activeElement?.id);
    if (CONTROL_IDS.includes(id)) reached.add(id);
  }
  assert.deepEqual([...reached].sort(), [...CONTROL_IDS].sort(), 'Tab reaches every control');
  await page.focus('#load');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await hashEntries(page)).get('load'), '0.85', 'the keyboard moves a slider');
  await screenshot(page, 'narrow-360');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a thousand servers switch to the compact view', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'servers=1000&slots=1&load=0.4&clients=1000' });
  await page.waitForFunction(() => window.lbsim.simTime() > 1000);
  await settle(page);
  for (const id of CANVASES) assert.ok((await drawnFraction(page, id)) > 0.01, `#${id} is blank`);
  await screenshot(page, 'compact-1000');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a panic shows a visible message instead of a silently frozen page', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await assert.rejects(page.evaluate(() => window.lbsim.panic()));
  const banner = page.locator('#panic');
  await banner.waitFor({ state: 'visible' });
  assert.match(await banner.textContent(), /internal error: .*panic requested by window\.lbsim\.panic\(\)/s);
  assert.ok(errors.some((e) => e.includes('panic requested')), 'the panic is logged to the console');
  await screenshot(page, 'panic');
  await page.context().close();
});
