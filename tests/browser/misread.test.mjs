// Details a reader misread (issue 39, items 6, 7 and 9): the legend
// shows where the view has room for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, openApp, server, skipQuestion, useBrowser } from './lib.mjs';

useBrowser();

/** The hooks' index of the view in section `id`. */
const viewIndex = (page, id) => page.evaluate((id) =>
  [...document.querySelectorAll('[data-lbsim]')].indexOf(document.querySelector(`#${id} [data-lbsim]`)), id);

/** Chapter 1 at 1440 × 900, in sight, past its question and its opening trip. */
async function chapterOne() {
  const { page, errors } = await openApp(browser, server.url + 'explain.html', { width: 1440, height: 900 });
  const index = await viewIndex(page, 'one-server');
  await page.evaluate(() => document.getElementById('sim-one-server').scrollIntoView({ block: 'start', behavior: 'instant' }));
  await skipQuestion(page, 'one-server');
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 1000
    && document.querySelector('#sim-one-server .following').hidden, index, { timeout: 30_000 });
  // A view in sight fits itself to its box, checking every 250 ms.
  await page.waitForTimeout(600);
  return { page, errors, index };
}

test('chapter 1 at 1440 × 900 shows its legend, with no Key to open it', async () => {
  const { page, errors } = await chapterOne();
  // Shown once the view fits, and still as it runs on (its sentence grows
  // a line now and then).
  for (const wait of [0, 3000]) {
    await page.waitForTimeout(wait);
    assert.equal(await page.isVisible('#sim-one-server .stage > .legend'), true, `after ${wait} ms`);
    assert.equal(await page.isVisible('#sim-one-server .key-toggle'), false, `after ${wait} ms`);
  }
  const key = await page.evaluate(() => [...document.querySelectorAll('#sim-one-server .stage > .legend li')]
    .filter((item) => item.checkVisibility()).map((item) => item.textContent));
  assert.ok(key.includes('queued') && key.includes('busy slot'), `${key}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

