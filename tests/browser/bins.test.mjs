// Balls into bins (bins.html): the view throws balls live, draws both
// histograms and shows each side's spread in numbers; after a million
// balls into 100 bins best of two's spread is a small fraction of
// random's; its settings start the throwing over; and screenshots at
// desktop and phone width, light and dark, go to tests/browser/artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, openApp, drawnFraction, screenshot } from './lib.mjs';

let server;
let browser;
before(async () => {
  server = await serveDist();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const state = async (page) => JSON.parse(await page.evaluate(() => window.lbsim.bins()[0].state()));
const figure = (page, id) => page.$eval(`#${id}`, (element) => element.textContent);

test('the view throws balls, draws both histograms and shows the spreads', async () => {
  const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width: 1280, height: 720 });
  await page.waitForFunction(() => JSON.parse(window.lbsim.bins()[0].state()).sides[0].thrown > 0);
  const first = (await state(page)).sides[0].thrown;
  await page.waitForTimeout(500);
  const later = await state(page);
  assert.ok(later.sides[0].thrown > first, `no more balls after half a second: ${first}, then ${later.sides[0].thrown}`);
  assert.equal(later.sides[0].thrown, later.sides[1].thrown, 'both sides throw as many balls');
  assert.deepEqual(later.sides.map((s) => s.method), ['random', 'best of 2']);
  for (const side of ['left', 'right']) {
    const drawn = await drawnFraction(page, `bins-${side}-histogram`);
    assert.ok(drawn > 0.01, `${side} histogram: ${drawn} of its pixels drawn`);
    for (const id of [`bins-${side}-max-minus-mean`, `bins-${side}-max-minus-min`]) {
      const text = await figure(page, id);
      assert.match(text, /^[\d,]+(\.\d)?$/, `${id}: "${text}"`);
    }
  }
  assert.match(await figure(page, 'bins-thrown'), /of 1,000,000 balls thrown into 100 bins/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('after a million balls into 100 bins, best of two spreads them far less than random', async () => {
  const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width: 1280, height: 720 });
  await page.evaluate(() => window.lbsim.bins()[0].throw(1_000_000));
  await page.waitForFunction(() => !JSON.parse(window.lbsim.bins()[0].state()).running);
  const [random, two] = (await state(page)).sides;
  assert.equal(random.thrown, 1_000_000);
  // Natively, over 200 trials: 502 ± 4 and 4.8 ± 0.1 (tests/bins.rs).
  assert.ok(random.max_minus_min > 250 && random.max_minus_min < 900, `random: ${random.max_minus_min}`);
  assert.ok(two.max_minus_min < 12, `best of two: ${two.max_minus_min}`);
  assert.equal(Number((await figure(page, 'bins-right-max-minus-min')).replace(/,/g, '')), two.max_minus_min);
  // The live region says both, in words, once the throwing is done.
  await page.waitForFunction(() => document.getElementById('bins-status').textContent.startsWith('After 1,000,000 balls'));
  const status = await page.$eval('#bins-status', (element) => element.textContent);
  assert.match(status, /random, max − mean [\d,.]+, max − min \d+; best of 2, max − mean [\d,.]+, max − min \d+\./);
  assert.equal(await page.$eval('#bins-play', (button) => button.textContent), 'Again');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a setting starts both sides over with it', async () => {
  const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width: 1280, height: 720 });
  await page.click('#bins-play');
  await page.selectOption('#bins-bins', '20');
  await page.selectOption('#bins-left-method', 'round-robin');
  await page.selectOption('#bins-balls', '1000');
  await page.waitForFunction(() => !JSON.parse(window.lbsim.bins()[0].state()).running);
  const [left, right] = (await state(page)).sides;
  assert.deepEqual([left.bins, right.bins, left.thrown], [20, 20, 1000]);
  assert.equal(left.method, 'round-robin');
  assert.equal(left.max_minus_min, 0, 'round-robin levels 1000 balls in 20 bins exactly');
  // d applies to best of d.
  await page.fill('#bins-choices', '3');
  await page.dispatchEvent('#bins-choices', 'input');
  assert.equal((await state(page)).sides[1].method, 'best of 3');
  // Pause stops the throwing.
  await page.selectOption('#bins-balls', '10000000');
  await page.click('#bins-play');
  const paused = (await state(page)).sides[0].thrown;
  await page.waitForTimeout(300);
  assert.equal((await state(page)).sides[0].thrown, paused);
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
  await page.waitForFunction(() => JSON.parse(window.lbsim.bins()[0].state()).sides[1].method === 'hash');
  assert.deepEqual(errors, []);
  await page.context().close();
});

for (const [width, height] of [[1280, 720], [360, 780]]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`bins.html at ${width} px, ${colorScheme}`, async () => {
      const { page, errors } = await openApp(browser, `${server.url}bins.html`, { width, height, colorScheme });
      await page.evaluate(() => window.lbsim.bins()[0].throw(300_000));
      await page.waitForTimeout(600);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      await screenshot(page, `bins-${width}-${colorScheme}`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}
