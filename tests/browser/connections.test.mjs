// The explainer's chapter "One connection, many requests" (section
// #connections), as a reader meets it at the desktop sizes its controls
// must fit: it waits at its question, the answer's prose shows only after
// a guess, both runs are drawn side by side and named by how often each
// picks, the two controls its prose names sit under the picture and take
// a click at their centre, and a control moved reaches the run (ten
// connections for each client bring the tail down to milliseconds).
// tests/explainer_claims.rs holds the prose's figures to the model natively.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, screenshot, slideTo, reach } from './lib.mjs';

useBrowser();

const ROOT = '#sim-connections';
const CONTROLS = ['connections_per_client', 'max_connection_age_ms'];

/** Clicks at the centre of `locator`, as a reader does. */
async function clickCentre(page, locator) {
  const box = await locator.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** The chapter's view index among the page's views. */
const viewIndex = (page) => page.evaluate((root) =>
  [...document.querySelectorAll('[data-lbsim]')].indexOf(document.querySelector(root)), ROOT);

for (const [width, height] of [[1440, 900], [1280, 720]]) {
  test(`at ${width} × ${height} the chapter asks first, then draws both runs with its two controls under them`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
    const view = await viewIndex(page);
    await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), ROOT);
    await page.waitForFunction((i) => window.lbsim.views()[i].onScreen(), view);
    await page.waitForTimeout(1000);
    assert.equal(await page.evaluate((i) => window.lbsim.views()[i].simTime(), view), 0, 'it ran before the answer');
    const reveals = await page.locator('#connections [data-reveal]').all();
    const told = () => Promise.all(reveals.map((p) => p.isVisible()));
    assert.deepEqual(await told(), [false, false], 'the answer is told before the question');
    // The answers to its question: those to another kind of question are hidden.
    const answers = page.locator(`${ROOT} .question button:not([hidden])`);
    assert.deepEqual(await answers.allTextContents(),
      ['one pick per connection', 'one pick per request', 'About the same', 'Skip: just run it']);
    await screenshot(page, `connections-${width}-asking`);

    await clickCentre(page, answers.first());
    assert.deepEqual(await told(), [false, false], 'the answer is told before the runs have made their point');
    await page.waitForFunction((root) => /^Your guess/.test(document.querySelector(`${root} .question .verdict`).textContent),
      ROOT, { timeout: 30_000 });
    assert.deepEqual(await told(), [true, true], 'the answer stays hidden after the verdict');
    const verdict = await page.locator(`${ROOT} .question .verdict`).textContent();
    assert.ok(verdict.startsWith('Your guess held: one pick per connection has the longer tail'), verdict);
    const titles = await page.locator(`${ROOT} .pane-title`).allTextContents();
    assert.deepEqual(titles.map((t) => t.trim()), ['A: one pick per connection', 'B: one pick per request']);
    const pictures = await page.locator(`${ROOT} canvas.topology`).count();
    assert.equal(pictures, 2);
    await screenshot(page, `connections-${width}-answered`);
    // Last, as a click at a slider's centre moves it and restarts the run.
    for (const key of CONTROLS) {
      const id = `sim-connections-${key}`;
      const control = await reach(page, id);
      assert.ok(control.visible && !control.inDrawer, `${key}: ${JSON.stringify(control)}`);
      assert.ok(control.hits, `${key}: a click at its centre reaches something else`);
      await page.mouse.click(control.x, control.y);
      assert.equal(await page.evaluate(() => document.activeElement?.id), id);
      await page.keyboard.press('Escape');
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test('ten connections for each client, set on the slider, bring the tail down from seconds to milliseconds', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const view = await viewIndex(page);
  await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), ROOT);
  await clickCentre(page, page.locator(`${ROOT} .question .skip-guess`));
  const p99At = (ms) => page.evaluate(({ i, ms }) => {
    const hooks = window.lbsim.views()[i];
    hooks.advance(ms - hooks.simTime());
    return JSON.parse(hooks.summary()).queue_ms.p99;
  }, { i: view, ms });
  const pinned = await p99At(10_000);
  await slideTo(page, page.locator(`${ROOT}-connections_per_client`), '10', 'ArrowRight');
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() < 5_000, view);
  const spread = await p99At(10_000);
  assert.ok(pinned > 1_000 && spread < 100, `p99 queue time ${pinned} ms with one connection, ${spread} ms with ten`);
  assert.deepEqual(errors, []);
  await page.context().close();
});
