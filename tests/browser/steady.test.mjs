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
 * Starts watching where chapter `id`'s picture and its row of figures lie
 * (window px, as `x y width height`): from the first frame the view drew
 * (once answered, when `answered` and the chapter asks), every later frame
 * that puts either more than 1 px from there is noted, until `seenSince`
 * reads the notes.
 */
const watchBoxes = (page, id, answered) => page.evaluate(async ([id, answered]) => {
  const root = document.getElementById(`sim-${id}`);
  root.scrollIntoView({ block: 'start' });
  const index = [...document.querySelectorAll('[data-lbsim]')].indexOf(root);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let view;
  while (!(view = window.lbsim.views()[index]) || view.frameCosts().length === 0) await frame();
  // Answered, a chapter that asks shows its sentence in place of nothing
  // the next frame: the watch starts from that frame's layout.
  if (answered && root.querySelector('.question')) {
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
  const start = performance.now();
  const watch = { seen, on: true };
  window.steadyWatch = watch;
  (async () => {
    for (; watch.on; await frame()) {
      const now = boxes();
      const moved = now.some((b, i) => b.some((v, k) => Math.abs(v - first[i][k]) > 1));
      if (moved && seen.at(-1)[1] !== written(now)) seen.push([Math.round(performance.now() - start), written(now), root.className]);
    }
  })();
}, [id, answered]);

/** Stops the watch `watchBoxes` started and gives its notes (ms: where). */
const seenSince = (page) => page.evaluate(() => {
  window.steadyWatch.on = false;
  return window.steadyWatch.seen;
});

/** The notes, one a line, for a failure's message. */
const listed = (seen) => `boxes after the first frame (ms: where):\n${seen.map((s) => s.join(': ')).join('\n')}`;

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
      await watchBoxes(page, id, true);
      await page.waitForTimeout(8000);
      const seen = await seenSince(page);
      assert.equal(seen.length, 1, listed(seen));
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

// A chapter that asks keeps its picture where it was as the reader
// answers: the verdict took the answers' place and the sentence appeared
// above the picture, moving it once, at the answer. Watched from the
// question's first frame, through a click at the first answer's centre,
// for 8 s after it.
for (const [id, name] of [
  ['repick', 'chapter 4'],
  ['power-of-two', 'chapter 5'],
  ['stale', 'chapter 6'],
]) {
  for (const [width, height] of PHONE_AND_DESKTOP) {
    test(`at ${width} × ${height}, ${name}'s picture stays where the question put it as the reader answers`, async () => {
      const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
      await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start' }), id);
      await watchBoxes(page, id, false);
      const answer = page.locator(`#${id} .question .answer`).first();
      await page.waitForTimeout(500);
      const box = await answer.boundingBox();
      assert.ok(box, 'the question shows its answers');
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction((id) => document.querySelector(`#${id} .question .answers`).hidden, id);
      await page.waitForTimeout(8000);
      const seen = await seenSince(page);
      assert.equal(seen.length, 1, listed(seen));
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}
