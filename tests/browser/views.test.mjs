// Several views in one document (tests/browser/views.html): one module, one
// animation loop; a view out of sight uses no simulated time and resumes
// where it stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, drawnFraction } from './lib.mjs';

useBrowser();

const times = (page) => page.evaluate(() => window.lbsim.views().map((v) => v.simTime()));
const onScreen = (page) => page.evaluate(() => window.lbsim.views().map((v) => v.onScreen()));
const scrollTo = (page, id) => page.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'center' }), id);

test('three views on one page each build their own parts, with ids apart', async () => {
  const { page, errors } = await openApp(browser, `${server.url}views.html`, { width: 1280, height: 800 });
  // A view far from the window mounts as it nears it; the hooks mount all.
  await page.evaluate(() => window.lbsim.views());
  const parts = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].map((root) => ({
    canvases: [...root.querySelectorAll('canvas')].map((c) => c.id),
    controls: [...root.querySelectorAll('.control select, .control input')].map((c) => c.id),
  })));
  assert.deepEqual(parts, [
    { canvases: ['first-topology', 'first-chart-percentiles'], controls: ['first-policy'] },
    { canvases: ['second-topology', 'second-chart-load'], controls: ['second-policy', 'second-load'] },
    { canvases: ['third-topology'], controls: [] },
  ]);
  assert.equal(await page.evaluate(() => window.lbsim.views().length), 3);
  // Each view's control drives its own simulation only.
  await scrollTo(page, 'second');
  await page.selectOption('#second-policy', 'random');
  const policies = await page.evaluate(() => window.lbsim.views().map((v) => JSON.parse(v.summary()).policy));
  assert.deepEqual(policies, ['random', 'random', 'shortest-queue']);
  assert.equal(await page.evaluate(() => location.hash), '', 'views with their own settings leave the URL alone');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a view scrolled out of sight stops its simulated time and resumes where it was', async () => {
  const { page, errors } = await openApp(browser, `${server.url}views.html`, { width: 1280, height: 800 });
  await page.waitForFunction(() => window.lbsim.views()[0].simTime() > 1000);
  assert.deepEqual(await onScreen(page), [true, false, false]);
  const [, unseen, third] = await times(page);
  assert.deepEqual([unseen, third], [0, 0], 'views never in sight ran');

  await scrollTo(page, 'second');
  await page.waitForFunction(() => window.lbsim.views()[1].simTime() > 1000);
  assert.deepEqual(await onScreen(page), [false, true, false]);
  const [away] = await times(page);
  await page.waitForTimeout(1000);
  const [stillAway, second] = await times(page);
  assert.equal(stillAway, away, 'the first view moved while out of sight');
  assert.ok((await drawnFraction(page, 'second-topology')) > 0.01, 'the second view is drawn');

  await scrollTo(page, 'first');
  await page.waitForFunction((t) => window.lbsim.views()[0].simTime() > t, away);
  const [back] = await times(page);
  // At 1×, the first frame back accounts for no wall time and the next for
  // one frame: a jump of the second away would show as 1000 ms or more.
  assert.ok(back - away < 200, `the first view jumped ${back - away} ms on coming back`);
  await page.waitForFunction((t) => window.lbsim.views()[0].simTime() > t + 500, back);
  const [, secondAway] = await times(page);
  assert.ok(secondAway - second < 1500, 'the second view stopped once scrolled away');
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Headless Chromium never hides a page, so the test stands in for the
// browser: it reports the document hidden, then visible again.
test('a hidden tab gives views no frames', async () => {
  const { page, errors } = await openApp(browser, `${server.url}views.html`, { width: 1280, height: 800 });
  await page.waitForFunction(() => window.lbsim.views()[0].simTime() > 500);
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.waitForTimeout(100);
  const [hidden] = await times(page);
  await page.waitForTimeout(800);
  assert.equal((await times(page))[0], hidden, 'time moved in a hidden tab');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.waitForFunction((t) => window.lbsim.views()[0].simTime() > t + 300, hidden);
  assert.deepEqual(errors, []);
  await page.context().close();
});
