// Every view keeps its shape, as a reader meets it, over a matrix of cases:
// each explainer chapter at four window sizes in light and dark; the lab in
// its modes at three sizes; embeds in six configurations in frames from a
// blog column to a slide. In every case each visible control takes a click
// at its centre, no two runs of text overprint, and no part leaves its
// view's box (usable.mjs); an embed in a frame of 640 × 400 or more also
// fits its frame without scrolling and gives its picture at least 40% of
// it. A screenshot of each kind of case lands in tests/browser/artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, artifact } from './lib.mjs';
import { layoutProblems } from './usable.mjs';

useBrowser();

const SIZES = [[1280, 720], [1440, 900], [1920, 1080], [390, 844]];
const THEMES = ['light', 'dark'];

/** Opens `path` (a page, and a hash after #) at a size and theme. */
function open(path, { width, height, colorScheme = 'light' }) {
  const [page, hash] = path.split('#');
  return openApp(browser, server.url + page, { hash, width, height, colorScheme });
}

/** Scrolls a view into sight and waits until it has fitted and drawn:
 * a running view rewrites its sentences each second and checks that it
 * still fits four times a second. */
async function settle(page, selector, waitMs = 1300) {
  await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'start', behavior: 'instant' }), selector);
  for (let i = 0; i < 4; i += 1) await page.evaluate(() => new Promise(requestAnimationFrame));
  await page.waitForTimeout(waitMs);
}

// Each size in light, then the same page switched to dark (the layout must
// not depend on the colours, and the second pass checks that it does not).
for (const [width, height] of SIZES) {
  test(`explainer at ${width} × ${height}, light then dark: every chapter's view is usable`, async () => {
    const { page, errors } = await open('explain.html', { width, height });
    const ids = await page.evaluate(() => [...document.querySelectorAll('.chapter [data-lbsim]')].map((v) => v.id));
    assert.ok(ids.length >= 10, `the explainer has ${ids.length} views`);
    const problems = [];
    for (const colorScheme of THEMES) {
      await page.emulateMedia({ colorScheme });
      for (const [index, id] of ids.entries()) {
        await settle(page, `#${id}`, colorScheme === 'light' ? 1300 : 300);
        for (const problem of await layoutProblems(page, `#${id}`)) problems.push(`${colorScheme} ${id}: ${problem}`);
        if (index < 2 || id === 'sim-keys' || (colorScheme === 'dark' && index === ids.length - 1)) {
          await page.screenshot({ path: artifact(`shape-explain-${id}-${width}x${height}-${colorScheme}.png`) });
        }
      }
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

/** The lab's modes: each a link's hash and what to press after it loads. */
const LAB_MODES = [
  ['plain', '', []],
  ['presenter', 'presenter=1', []],
  ['presenter-settings', 'presenter=1', ['h']],
  ['compare', 'versus=policy:random', []],
  ['stepping', '', ['s', 's', 's']],
  ['following', '', ['follow']],
];

for (const [width, height] of [[1280, 720], [1920, 1080], [390, 844]]) {
  test(`lab at ${width} × ${height}: plain, presenter, with settings, compare, stepping and following are usable`, async () => {
    const problems = [];
    for (const [mode, hash, presses] of LAB_MODES) {
      const { page, errors } = await open(hash ? `#${hash}` : '', { width, height });
      await page.waitForFunction(() => window.lbsim.simTime() > 500);
      for (const press of presses) {
        if (press === 'follow') {
          await page.evaluate(() => window.lbsim.follow(0));
        } else {
          await page.keyboard.press(press);
        }
      }
      await page.waitForTimeout(300);
      for (const problem of await layoutProblems(page)) problems.push(`${mode}: ${problem}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: artifact(`shape-lab-${mode}-${width}x${height}.png`) });
      assert.deepEqual(errors, [], `${mode}: ${errors}`);
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });
}

/** Embeds as a post or a slide would configure them. */
const EMBEDS = [
  ['default', ''],
  ['two-controls-two-charts', 'controls=policy,load&charts=percentiles,clients'],
  ['versus-sentences', 'policy=power-of-d&versus=policy:random&controls=load&charts=percentiles&say=versus,ratios'],
  ['every-chart', 'controls=policy&charts=all'],
  ['keys', 'policy=ring&membership=10s:add&controls=virtual_nodes&charts=percentiles,keys&say=moved'],
  ['presenter', 'presenter=1&controls=policy,load&charts=percentiles'],
];

for (const [width, height] of [[640, 400], [680, 400], [800, 600], [1280, 720]]) {
  test(`embeds in a ${width} × ${height} frame fit it and are usable`, async () => {
    const problems = [];
    for (const [name, hash] of EMBEDS) {
      const { page, errors } = await open(`embed.html#${hash}`, { width, height });
      await page.waitForFunction(() => window.lbsim.simTime() > 500);
      await settle(page, '.lbsim-view');
      for (const problem of await layoutProblems(page)) problems.push(`${name}: ${problem}`);
      const fit = await page.evaluate(() => {
        // A view with a twin draws two pictures, which share the picture's place.
        const drawn = [...document.querySelectorAll('.topology')].map((canvas) => canvas.getBoundingClientRect())
          .reduce((area, picture) => area + picture.width * picture.height, 0);
        return {
          scrolls: document.documentElement.scrollHeight - innerHeight,
          share: drawn / (innerWidth * innerHeight),
        };
      });
      if (fit.scrolls > 0) problems.push(`${name}: the embed's document is ${fit.scrolls} px taller than its frame`);
      if (fit.share < 0.4) problems.push(`${name}: the picture covers ${(100 * fit.share).toFixed(0)}% of the frame`);
      await page.screenshot({ path: artifact(`shape-embed-${name}-${width}x${height}.png`) });
      assert.deepEqual(errors, [], `${name}: ${errors}`);
      await page.context().close();
    }
    assert.deepEqual(problems, []);
  });
}
