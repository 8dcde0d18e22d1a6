// A jump to a chapter (the contents, or a link to explain.html#stale)
// lands with the chapter's heading at the top, and stays there as the
// views above it mount and take their height: a fifth reader's jumps
// landed past the heading, the views above growing as they mounted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp } from './lib.mjs';

useBrowser();

for (const [width, height] of [[1440, 900], [390, 844]]) {
  for (const id of ['stale', 'power-of-two']) {
    test(`explain.html#${id} at ${width} × ${height} shows the chapter's heading at the top 3 s later`, async () => {
      const { page, errors } = await openApp(browser, `${server.url}explain.html`, { hash: id, width, height });
      await page.waitForTimeout(3_000);
      const top = await page.evaluate((id) => document.getElementById(`${id}-title`).getBoundingClientRect().top, id);
      assert.ok(top >= 0 && top <= 40, `the heading's top is ${top.toFixed(0)} px from the viewport's top`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

// A scroll by script lands as a jump does: reader 13 scrolled to chapter
// 4 1.5 s after load and landed a chapter low (its heading 721 px above
// the window), chapter 3's view having shrunk to its own height above it.
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} a scroll by script to chapter 4's heading 1.5 s after load stays there`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
    await page.waitForTimeout(1_500);
    await page.evaluate(() => document.getElementById('repick').scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(5_000);
    const top = await page.evaluate(() => document.getElementById('repick-title').getBoundingClientRect().top);
    assert.ok(top >= 0 && top <= 40, `the heading's top is ${top.toFixed(0)} px from the viewport's top`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// A new window size is not a view settling: a full-page screenshot makes
// the window 1 × 1 px, then as tall as the page, and the scroll hold took
// that for views above moving and left chapter 10 15,843 px above the
// window, where its run never began (connections.test timed out). The
// test makes the window 1 × 1 px and back, as the screenshot does first:
// the screenshot itself, all views in sight at once, can take more than
// its 30 s on a busy machine.
test('at 1440 × 900 a window made 1 × 1 px and back leaves the reader at chapter 10', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  await page.evaluate(() => document.getElementById('connections').scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(1_500);
  const top = () => page.evaluate(() => document.getElementById('connections-title').getBoundingClientRect().top);
  const before = await top();
  await page.setViewportSize({ width: 1, height: 1 });
  await page.waitForTimeout(300);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(500);
  const after = await top();
  assert.ok(Math.abs(after - before) <= 40, `the heading's top went from ${before.toFixed(0)} to ${after.toFixed(0)} px`);
  assert.deepEqual(errors, []);
  await page.context().close();
});
