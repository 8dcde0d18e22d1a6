// The demo page (tests/browser/embeds.html): six embeds, each a different
// configuration, as an author would paste them, all running on one page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, drawnFraction, screenshot } from './lib.mjs';

useBrowser();

test('the six-embed page runs all six with no console error', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${server.url}embeds.html`);
  const frames = page.locator('iframe');
  assert.equal(await frames.count(), 6);
  const themes = new Set();
  for (let index = 0; index < 6; index++) {
    const element = frames.nth(index);
    await element.scrollIntoViewIfNeeded();
    const frame = await (await element.elementHandle()).contentFrame();
    await frame.waitForFunction(() => window.lbsim !== undefined, null, { timeout: 30_000 });
    if (await frame.evaluate(() => document.querySelector('#play').textContent === 'Play')) {
      await frame.click('#play'); // the one that starts paused
    }
    const start = await frame.evaluate(() => window.lbsim.simTime());
    await frame.waitForFunction((t) => window.lbsim.simTime() > t + 500, start);
    await page.waitForTimeout(400);
    const drawn = await drawnFraction(frame, 'topology');
    assert.ok(drawn > 0.01, `embed ${index + 1}'s topology is blank`);
    const background = await frame.evaluate(() => getComputedStyle(document.querySelector('[data-lbsim]')).backgroundColor);
    themes.add(background);
  }
  await screenshot(page, 'embeds-page');
  assert.ok(themes.size >= 2, 'light and dark embeds');
  assert.deepEqual(errors, []);
  await context.close();
});
