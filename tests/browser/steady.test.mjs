// A chapter's picture holds its place as it runs: a reader watching a
// request travel loses it when the picture jumps. A fifth student reader
// saw chapter 1's picture move up 88 px a quarter of a second in, when the
// strip of figures above it folded into the row of buttons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp } from './lib.mjs';

useBrowser();

/**
 * Where chapter `id`'s picture and its row of figures lie (window px, as
 * `x y width height`) at each frame that moved them, from the first
 * frame the view drew to `ms` wall ms later.
 */
const boxesFromFirstFrame = (page, id, ms) => page.evaluate(async ([id, ms]) => {
  const root = document.getElementById(`sim-${id}`);
  root.scrollIntoView({ block: 'start' });
  const index = [...document.querySelectorAll('[data-lbsim]')].indexOf(root);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let view;
  while (!(view = window.lbsim.views()[index]) || view.frameCosts().length === 0) await frame();
  const box = (element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    return [x, y, width, height].map(Math.round).join(' ');
  };
  const seen = [];
  for (const start = performance.now(); performance.now() - start < ms; await frame()) {
    const now = `picture ${box(root.querySelector('.topology'))}, figures ${box(root.querySelector('.readouts'))}`;
    if (seen.at(-1)?.[1] !== now) seen.push([Math.round(performance.now() - start), now]);
  }
  return seen;
}, [id, ms]);

for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height}, chapter 1's picture and its figures stay where its first frame put them for 3 s`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
    const seen = await boxesFromFirstFrame(page, 'one-server', 3000);
    assert.equal(seen.length, 1, `boxes after the first frame (ms: where):\n${seen.map((s) => s.join(': ')).join('\n')}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
