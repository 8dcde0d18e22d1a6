// Chapter 1 opens with one request's trip at a pace a reader can follow
// (`first=one`): the first request's client is followed out to the
// server and back at a sixtieth of the view's speed, then everything
// plays at the view's own. Where the opening stands is
// `lbsim::ui::opening`, tested natively; this checks it as a reader meets it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp } from './lib.mjs';

useBrowser();

const followed = (page) => page.evaluate(() => window.lbsim.followedRequests().length);

test('an embed with first=one follows the first trip slowly, then plays at its speed', async () => {
  const hash = 'servers=1&policy=random&load=0.9&first=one';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 800, height: 600 });
  await page.waitForFunction(() => window.lbsim.followedRequests().length > 0, null, { timeout: 10_000 });
  const [t0, w0] = await page.evaluate(() => [window.lbsim.simTime(), performance.now()]);
  await page.waitForTimeout(1000);
  const [t1, w1] = await page.evaluate(() => [window.lbsim.simTime(), performance.now()]);
  // A sixtieth of speed 1 is 16.7 simulated ms a second; full speed, 1000.
  const pace = (t1 - t0) / (w1 - w0);
  assert.ok(pace < 0.05, `during the trip the view ran at ${pace.toFixed(3)} of real time`);
  assert.ok(t1 < 200, `the trip is still on at ${t1} ms`);
  await page.waitForFunction(() => window.lbsim.simTime() > 3000 && window.lbsim.followedRequests().length === 0,
    null, { timeout: 30_000 });
  assert.equal(await followed(page), 0, 'the trip over, no client is followed');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('without first=one, and under reduced motion, the view plays at its speed from the start', async () => {
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash: 'servers=1&load=0.9', width: 800, height: 600 });
  await page.waitForFunction(() => window.lbsim.simTime() > 1500, null, { timeout: 10_000 });
  assert.equal(await followed(page), 0);
  await page.context().close();
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, reducedMotion: 'reduce' });
  const reduced = await context.newPage();
  await reduced.goto(`${server.url}embed.html#servers=1&load=0.9&first=one`);
  await reduced.waitForFunction(() => window.lbsim?.simTime?.() > 1500, null, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await context.close();
});
