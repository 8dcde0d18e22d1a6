// A chapter's picture holds its place as it runs: a reader watching a
// request travel loses it when the picture jumps. A fifth student reader
// saw chapter 1's picture move up 88 px a quarter of a second in, when the
// strip of figures above it folded into the row of buttons, and chapter 2's
// strip come and go as the spike arrived.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, skipQuestion } from './lib.mjs';

useBrowser();

/**
 * Where chapter `id`'s picture and its row of figures lie (window px, as
 * `x y width height`) at the first frame the view drew and at each later
 * frame, to `ms` wall ms later, that put either more than 1 px from there.
 */
const boxesFromFirstFrame = (page, id, ms) => page.evaluate(async ([id, ms]) => {
  const root = document.getElementById(`sim-${id}`);
  root.scrollIntoView({ block: 'start' });
  const index = [...document.querySelectorAll('[data-lbsim]')].indexOf(root);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let view;
  while (!(view = window.lbsim.views()[index]) || view.frameCosts().length === 0) await frame();
  // Answered, a chapter that asks shows its sentence in place of nothing
  // the next frame: the watch starts from that frame's layout.
  if (root.querySelector('.question')) {
    while (root.querySelector('.readback')?.hidden !== false) await frame();
    await frame();
  }
  const box = (element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    return [x, y, width, height].map(Math.round);
  };
  const boxes = () => [box(root.querySelector('.topology')), box(root.querySelector('.readouts'))];
  // A loaded machine's note that the run is too heavy is written above
  // the picture: a move it causes says so.
  const heavy = () => root.querySelector('.too-heavy:not([hidden])')?.textContent.slice(0, 40) ?? '';
  const written = ([picture, figures]) => `picture ${picture.join(' ')}, figures ${figures.join(' ')}${heavy() && ` (${heavy()})`}`;
  const first = boxes();
  const seen = [[0, written(first), root.className]];
  for (const start = performance.now(); performance.now() - start < ms; await frame()) {
    const now = boxes();
    const moved = now.some((b, i) => b.some((v, k) => Math.abs(v - first[i][k]) > 1));
    if (moved && seen.at(-1)[1] !== written(now)) seen.push([Math.round(performance.now() - start), written(now), root.className]);
  }
  return seen;
}, [id, ms]);

const PHONE_AND_DESKTOP = [[1440, 900], [390, 844]];
// Chapters 1 to 6, each for 8 s: a sentence above the picture that grew
// as the run went (chapter 1 to three lines at 4.3 s at 1440 × 900,
// chapter 2 43 px at 0.8 s on a phone) moved the picture under the
// reader's eyes. A chapter that asks is watched from its answer on (here
// skipped), the moment its sentence first shows.
for (const [id, name] of [
  ['one-server', 'chapter 1'],
  ['spike', 'chapter 2'],
  ['continuous', 'chapter 3'],
  ['repick', 'chapter 4'],
  ['power-of-two', 'chapter 5'],
  ['stale', 'chapter 6'],
]) {
  for (const [width, height] of PHONE_AND_DESKTOP) {
    test(`at ${width} × ${height}, ${name}'s picture and its figures stay where its first frame put them for 8 s`, async () => {
      const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
      await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start' }), id);
      await skipQuestion(page, id);
      const seen = await boxesFromFirstFrame(page, id, 8000);
      assert.equal(seen.length, 1, `boxes after the first frame (ms: where):\n${seen.map((s) => s.join(': ')).join('\n')}`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}
