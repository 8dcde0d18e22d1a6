// Balls into bins (bins.html): the view throws balls live, draws both
// histograms and shows each side's spread in numbers; after a million
// balls into 100 bins best of two's spread is a small fraction of
// random's; its settings start the throwing over; and screenshots at
// desktop and phone width, light and dark, go to tests/browser/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, drawnFraction, screenshot } from './lib.mjs';

useBrowser();

const figure = (page, id) => page.$eval(`#${id}`, (element) => element.textContent);

/** What the page shows: balls thrown and to throw, the play button's word,
 * and each side's method and spreads, read from its text. */
const shown = (page) => page.evaluate(() => {
  const text = (id) => document.getElementById(id).textContent;
  const number = (id) => Number(text(id).replace(/,/g, ''));
  const [thrown, balls, bins] = text('bins-thrown').match(/[\d,]+/g).map((n) => Number(n.replace(/,/g, '')));
  const side = (name) => ({
    method: document.getElementById(`bins-${name}-method`).value,
    above: number(`bins-${name}-max-minus-mean`),
    range: number(`bins-${name}-max-minus-min`),
  });
  return { thrown, balls, bins, play: text('bins-play'), sides: [side('left'), side('right')] };
});

/** Sets a slider as a hand on it would (its input event). */
const slide = (page, id, value) => page.$eval(`#${id}`, (input, value) => {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}, value);

const fastest = (page) => slide(page, 'bins-speed', 100);

test('the view throws balls, draws both histograms and shows the spreads', async () => {
  const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width: 1280, height: 720 });
  await page.waitForFunction(() => /^[1-9]/.test(document.getElementById('bins-thrown').textContent));
  const first = (await shown(page)).thrown;
  await page.waitForTimeout(500);
  const later = await shown(page);
  assert.ok(later.thrown > first, `no more balls after half a second: ${first}, then ${later.thrown}`);
  assert.deepEqual([later.balls, later.bins], [1_000_000, 100]);
  assert.deepEqual(later.sides.map((s) => s.method), ['random', 'best-of-d']);
  for (const side of ['left', 'right']) {
    const drawn = await drawnFraction(page, `bins-${side}-histogram`);
    assert.ok(drawn > 0.01, `${side} histogram: ${drawn} of its pixels drawn`);
    for (const id of [`bins-${side}-max-minus-mean`, `bins-${side}-max-minus-min`]) {
      const text = await figure(page, id);
      assert.match(text, /^[\d,]+(\.\d)?$/, `${id}: "${text}"`);
    }
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('after a million balls into 100 bins, best of two spreads them far less than random', async () => {
  const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width: 1280, height: 720 });
  await fastest(page);
  await page.waitForFunction(() => document.getElementById('bins-play').textContent === 'Again', null, { timeout: 20_000 });
  const { thrown, sides: [random, two] } = await shown(page);
  assert.equal(thrown, 1_000_000);
  // Natively, over 200 trials: 502 ± 4 and 4.8 ± 0.1 (tests/bins.rs).
  assert.ok(random.range > 250 && random.range < 900, `random: ${random.range}`);
  assert.ok(two.range < 12, `best of two: ${two.range}`);
  assert.ok(two.above < 6 && random.above > 100, `max − mean: ${random.above} and ${two.above}`);
  // The live region says both, in words, once the throwing is done.
  await page.waitForFunction(() => document.getElementById('bins-status').textContent.startsWith('After 1,000,000 balls'));
  const status = await figure(page, 'bins-status');
  assert.match(status, /random, max − mean [\d,.]+, max − min \d+; best of 2, max − mean [\d,.]+, max − min \d+\./);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a setting starts both sides over with it', async () => {
  const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width: 1280, height: 720 });
  await page.click('#bins-play');
  await page.selectOption('#bins-bins', '20');
  await page.selectOption('#bins-left-method', 'round-robin');
  await page.selectOption('#bins-balls', '1000');
  await page.waitForFunction(() => document.getElementById('bins-play').textContent === 'Again');
  const { thrown, bins, sides: [left] } = await shown(page);
  assert.deepEqual([thrown, bins], [1000, 20]);
  assert.equal(left.range, 0, 'round-robin levels 1000 balls in 20 bins exactly');
  // d applies to best of d.
  await slide(page, 'bins-choices', 3);
  await page.waitForFunction(() => document.getElementById('bins-status').textContent.includes('best of 3'));
  // Pause stops the throwing.
  await page.selectOption('#bins-balls', '10000000');
  await page.click('#bins-play');
  const paused = (await shown(page)).thrown;
  await page.waitForTimeout(300);
  assert.equal((await shown(page)).thrown, paused);
  assert.equal(await figure(page, 'bins-play'), 'Play');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('every control is reached by keyboard, with a visible focus ring, and works from it', async () => {
  const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width: 1280, height: 720 });
  const controls = await page.$$eval('[data-lbsim="bins"] :is(select, input, button)', (all) => all.map((e) => e.id));
  assert.equal(controls.length, 9);
  const reached = new Map();
  for (let presses = 0; presses < 40 && reached.size < controls.length; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement);
      return { id: document.activeElement.id, ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
    });
    if (controls.includes(focused.id)) reached.set(focused.id, focused.ring);
  }
  assert.deepEqual([...reached.keys()].sort(), [...controls].sort());
  assert.ok([...reached.values()].every(Boolean), 'a control without a focus ring');
  // A menu works from the keyboard: End chooses its last method, hash.
  await page.focus('#bins-right-method');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.getElementById('bins-status').textContent.includes('; hash,'));
  assert.deepEqual(errors, []);
  await page.context().close();
});

for (const [width, height] of [[1280, 720], [360, 780]]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`bins.html at ${width} px, ${colorScheme}`, async () => {
      const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width, height, colorScheme });
      await fastest(page);
      await page.waitForFunction(() => document.getElementById('bins-play').textContent === 'Again', null, { timeout: 20_000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      await screenshot(page, `bins-${width}-${colorScheme}`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}
