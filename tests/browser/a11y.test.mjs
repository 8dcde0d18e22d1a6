// Accessibility: axe-core finds no serious or critical violation in the
// lab, the explainer, an embed or balls into bins, light and dark; every control of the lab
// is reached and worked by keyboard alone, with a visible focus ring; the
// shortcuts act from sliders and menus, Escape leaves a control; views have
// a polite live summary; reduced motion draws no request dots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { browser, server, useBrowser, openApp, hashEntries } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

useBrowser();

/** axe-core's serious and critical violations on the page, in words. */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const colorScheme of ['light', 'dark']) {
  test(`axe-core: no serious or critical violation in the lab, the explainer, an embed and balls into bins (${colorScheme})`, async () => {
    for (const path of ['', 'explain.html', 'embed.html#policy=power-of-d&controls=policy,load,staleness_ms&charts=all&caption=Power%20of%20two', 'bins.html']) {
      const { page, errors } = await openApp(browser, server.url + path, { width: 1280, height: 900, colorScheme });
      await page.waitForTimeout(800);
      assert.deepEqual(await violations(page), [], `${path || 'the lab'}`);
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  });
}

test('every control of the lab is reached and worked by keyboard alone, with a visible focus ring', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1280, height: 900 });
  const controls = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim] select, [data-lbsim] input, [data-lbsim] button, [data-lbsim] textarea')]
    .filter((e) => !e.closest('[hidden]') && !e.disabled).map((e) => e.id));
  assert.ok(controls.length >= 18, `only ${controls.length} controls`);
  const reached = new Map();
  for (let presses = 0; presses < 200 && reached.size < controls.length; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      const style = getComputedStyle(e);
      const folded = e.tagName === 'SUMMARY' && !e.parentElement.open;
      return { id: e.id, folded, ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
    });
    if (controls.includes(focused.id)) reached.set(focused.id, focused.ring);
    // A folded box (Take away) opens with Enter, as a keyboard user would.
    if (focused.folded) await page.keyboard.press('Enter');
  }
  assert.deepEqual(controls.filter((id) => !reached.has(id)), [], 'controls Tab never reached');
  assert.deepEqual([...reached].filter(([, ring]) => !ring).map(([id]) => id), [], 'controls without a focus ring');

  // Work each kind: a menu and a slider by arrow keys, a number by typing,
  // a button by Enter.
  await page.focus('#policy');
  await page.keyboard.press('ArrowDown');
  assert.equal((await hashEntries(page)).get('policy'), 'round-robin');
  await page.focus('#load');
  await page.keyboard.press('ArrowRight');
  assert.equal((await hashEntries(page)).get('load'), '0.95');
  await page.focus('#seed');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('42');
  await page.keyboard.press('Enter');
  assert.equal((await hashEntries(page)).get('seed'), '42');
  await page.focus('#copy-embed');
  await page.keyboard.press('Enter');
  assert.ok(await page.isVisible('#embed-code'), 'Enter pressed Copy embed code');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('after choosing a policy by keyboard, space pauses and r resets; Escape leaves a slider', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1280, height: 900 });
  await page.waitForFunction(() => window.lbsim.simTime() > 1500);
  await page.focus('#policy');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press(' ');
  assert.equal(await page.textContent('#play'), 'Play', 'space from the menu paused');
  assert.equal(await page.inputValue('#policy'), 'round-robin', 'space did not change the menu');
  await page.keyboard.press('r');
  assert.equal(await page.evaluate(() => window.lbsim.simTime()), 0, 'r from the menu reset');
  assert.equal(await page.inputValue('#policy'), 'round-robin', 'r did not pick another policy');
  await page.focus('#load');
  await page.keyboard.press(' ');
  assert.equal(await page.textContent('#play'), 'Pause', 'space from a slider played');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'Escape left the slider');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('each view tells screen readers its figures in a polite live region, at most every few seconds', async () => {
  const { page, errors } = await openApp(browser, `${server.url}embed.html#policy=random`, { width: 1000, height: 700 });
  const live = page.locator('[aria-live="polite"].visually-hidden');
  assert.equal(await live.count(), 1);
  // It says what the strip says, over the strip's span (the lab's: the
  // last second), and the bounces the picture counts since the run began;
  // before the first second is counted, that nothing is yet.
  await page.waitForFunction(() => document.querySelector('.visually-hidden[aria-live]').textContent.length > 0);
  const opening = await live.textContent();
  assert.match(opening, /^Last second: (none counted yet|p50 queue time)/);
  const figures = () => document.querySelector('.visually-hidden[aria-live]').textContent.includes('p99 queue time');
  await page.waitForFunction(figures, null, { timeout: 8000 });
  const first = await live.textContent();
  assert.match(first, /^Last second: p50 queue time [\d.,]+ ms, p99 queue time [\d.,]+ ms(, (rising|falling|steady))?; [\d,]+ bounces? since the run began\.$/);
  await page.waitForTimeout(2000);
  assert.equal(await live.textContent(), first, 'announced again within 2 s');
  await page.waitForFunction((first) => document.querySelector('.visually-hidden[aria-live]').textContent !== first, first, { timeout: 8000 });
  assert.match(await live.textContent(), /^Last second: p50 queue time [\d.,]+ ms, p99 queue time [\d.,]+ ms, (rising|falling|steady); /);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('with reduced motion no request dots are drawn, and the figures still update', async () => {
  const drawn = async (reducedMotion) => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, reducedMotion });
    const page = await context.newPage();
    await page.goto(`${server.url}embed.html#policy=random`);
    await page.waitForFunction(() => window.lbsim?.simTime() > 2000);
    const result = await page.evaluate(async () => {
      let most = 0;
      for (let i = 0; i < 20; i += 1) {
        await new Promise(requestAnimationFrame);
        most = Math.max(most, window.lbsim.views()[0].requestsDrawn());
      }
      return { most, p99: document.querySelector('[id$="p99"]').textContent };
    });
    await context.close();
    return result;
  };
  const moving = await drawn('no-preference');
  const still = await drawn('reduce');
  assert.ok(moving.most > 0, 'no dots without the preference: the test could not fail');
  assert.equal(still.most, 0);
  assert.notEqual(still.p99, '–', 'the readouts stopped');
});
