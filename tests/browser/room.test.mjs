// A room that can read it: the presenter view fits one screen at
// 1280 × 720 and up (no scroll), with the picture, the readouts and the
// sentence in sight and every label the picture draws at least a fortieth
// of the screen's height (18 px at 720); compare mode starts its charts
// right under the two panes, with no blank column before them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, artifact } from './lib.mjs';
import { layoutProblems } from './usable.mjs';

useBrowser();

/** Opens the lab at `hash`, recording the size of every text the picture (the topology) draws. */
async function openRecording(hash, width, height) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  await context.addInitScript(() => {
    window.pictureLabels = [];
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      if (this.canvas.classList.contains('topology')) {
        window.pictureLabels.push({ text: String(text), px: Number(this.font.match(/([\d.]+)px/)?.[1]) });
      }
      return fillText.call(this, text, ...rest);
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${server.url}#${hash}`);
  await page.waitForFunction(() => window.lbsim?.simTime() > 2000, null, { timeout: 30_000 });
  return { page, errors };
}

/** Where each of `selectors` lies, and how far the document scrolls. */
const measure = (page, selectors) => page.evaluate((selectors) => ({
  scrolls: [document.documentElement.scrollHeight - innerHeight, document.documentElement.scrollWidth - innerWidth],
  boxes: Object.fromEntries(selectors.map((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return [s, { top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height) }];
  })),
}), selectors);

for (const [width, height] of [[1280, 720], [1920, 1080]]) {
  test(`the presenter view at ${width} × ${height} is one screen, its picture's labels a fortieth of it`, async () => {
    const { page, errors } = await openRecording('presenter=1', width, height);
    await page.evaluate(() => { window.pictureLabels = []; });
    await page.waitForTimeout(400);
    const { scrolls, boxes } = await measure(page, ['.stage > .readouts', '#topology', '.stage > .readback']);
    assert.deepEqual(scrolls.map((s) => Math.max(0, s)), [0, 0], 'the page does not scroll');
    for (const [part, box] of Object.entries(boxes)) {
      assert.ok(box.top >= 0 && box.bottom <= height && box.height > 0, `${part} lies at ${JSON.stringify(box)}`);
    }
    assert.ok(boxes['#topology'].height >= height / 3, `the picture is ${boxes['#topology'].height} px tall`);
    const labels = await page.evaluate(() => window.pictureLabels);
    assert.ok(labels.some((l) => /^\d+\/\d+$/.test(l.text)), 'the servers\' counts are drawn');
    const small = labels.filter((l) => l.px < height / 40);
    assert.deepEqual([...new Set(small.map((l) => `${l.text} at ${l.px} px`))], []);
    await page.screenshot({ path: artifact(`room-presenter-${width}x${height}.png`) });
    assert.deepEqual(await layoutProblems(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test(`compare mode at ${width} × ${height}: presenting it is one screen, and without the charts follow the panes`, async () => {
    const hash = 'policy=power-of-d&versus=policy:random';
    const presenting = await openRecording(`presenter=1&${hash}`, width, height);
    const shown = await measure(presenting.page, ['.pane-a .topology', '.pane-b .topology', '.stage > .readback']);
    assert.deepEqual(shown.scrolls.map((s) => Math.max(0, s)), [0, 0], 'the presenter page does not scroll');
    for (const [part, box] of Object.entries(shown.boxes)) {
      assert.ok(box.top >= 0 && box.bottom <= height && box.height > 0, `${part} lies at ${JSON.stringify(box)}`);
    }
    await presenting.page.screenshot({ path: artifact(`room-compare-presenter-${width}x${height}.png`) });
    assert.deepEqual(await layoutProblems(presenting.page), []);
    assert.deepEqual(presenting.errors, []);
    await presenting.page.context().close();

    const { page, errors } = await openApp(browser, server.url, { hash, width, height });
    await page.waitForFunction(() => window.lbsim.simTime() > 1000);
    const { boxes } = await measure(page, ['.stage', '.charts']);
    const blank = boxes['.charts'].top - boxes['.stage'].bottom;
    assert.ok(blank <= 40, `${blank} px between the panes and the charts`);
    await page.screenshot({ path: artifact(`room-compare-${width}x${height}.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test('the Compare box\'s example compares the lab\'s default with something else', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1280, height: 720 });
  const example = await page.getAttribute('#versus', 'placeholder');
  await page.fill('#versus', example);
  await page.click('#compare');
  await page.waitForFunction(() => window.lbsim.simTime() > 2000);
  const said = await page.evaluate(() => window.lbsim.views()[0].readback());
  assert.ok(!said.includes('nothing to compare'), `${example}: ${said}`);
  assert.match(said, /than with/, `${example}: ${said}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});
