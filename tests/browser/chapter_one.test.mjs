// Chapter 1's first seconds and its waits chart, as reader 13 met them:
// "none finished yet" for the 4 s its first trip plays at a hundredth of
// real time read as broken; the chart's time axis moved at each look
// (0–40, 0–50, 0–150, 0–400 ms), so the same pile looked different; at
// load 1.05 the median's and the mean's lines nearly touch, and their
// names must still read apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, artifact } from './lib.mjs';

useBrowser();

/**
 * Records, on each canvas, the box and text of every text written, and
 * the x of every upright stroke 2 px wide or more (a mark's line; the
 * axis and the grid are 1 px), since the canvas was last filled whole (a
 * chart's draw starts so).
 */
function recordChartTexts() {
  const { fillText, fillRect, moveTo, lineTo } = CanvasRenderingContext2D.prototype;
  CanvasRenderingContext2D.prototype.fillRect = function (x, y, w, h) {
    const t = this.getTransform();
    const whole = t.a * x + t.e <= 0 && t.d * y + t.f <= 0 && t.a * w >= this.canvas.width && t.d * h >= this.canvas.height;
    if (whole) [this.canvas.texts, this.canvas.uprights] = [[], []];
    return fillRect.call(this, x, y, w, h);
  };
  CanvasRenderingContext2D.prototype.moveTo = function (x, y) {
    this.pen = [x, y];
    return moveTo.call(this, x, y);
  };
  CanvasRenderingContext2D.prototype.lineTo = function (x, y) {
    const t = this.getTransform();
    if (this.pen && this.pen[0] === x && this.pen[1] !== y && this.lineWidth * t.a >= 2) {
      (this.canvas.uprights ??= []).push(t.a * x + t.e);
    }
    this.pen = [x, y];
    return lineTo.call(this, x, y);
  };
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    const m = this.measureText(text);
    const t = this.getTransform();
    const box = [
      t.a * (x - m.actualBoundingBoxLeft) + t.e, t.d * (y - m.actualBoundingBoxAscent) + t.f,
      t.a * (x + m.actualBoundingBoxRight) + t.e, t.d * (y + m.actualBoundingBoxDescent) + t.f,
    ];
    (this.canvas.texts ??= []).push({ text: String(text), box });
    return fillText.call(this, text, x, y, ...rest);
  };
}

/** The waits chart's axes as last drawn: its largest time tick and count tick. */
const axisEnds = (page) => page.evaluate(() => {
  const texts = document.querySelector('#sim-one-server-chart-waits').texts ?? [];
  const ticks = texts.filter((t) => /^[\d,.]+$/.test(t.text)).map((t) => ({ value: Number(t.text.replace(/,/g, '')), top: Math.round(t.box[1]) }));
  if (ticks.length === 0) return null;
  // The time ticks stand in the lowest row; the count ticks up the left.
  const lowest = Math.max(...ticks.map((t) => t.top));
  const time = ticks.filter((t) => t.top === lowest).map((t) => t.value);
  const count = ticks.filter((t) => t.top !== lowest).map((t) => t.value);
  return [Math.max(...time), count.length ? Math.max(...count) : 0];
});

/** Opens the explainer at chapter 1, in sight, recording its chart's texts. */
async function openChapterOne(width, height) {
  const opened = await openApp(browser, `${server.url}explain.html`, { width, height, initScript: recordChartTexts });
  await opened.page.evaluate(() => document.getElementById('one-server').scrollIntoView({ block: 'start' }));
  return opened;
}

test("chapter 1's strip says, while its first trip plays, that the first request is on its way", async () => {
  const { page, errors } = await openChapterOne(1440, 900);
  const strip = page.locator('#sim-one-server .readouts');
  await page.waitForFunction(() => window.lbsim.views()[0].followedRequests().length > 0, null, { timeout: 30_000 });
  const during = await strip.innerText();
  assert.match(during, /The first request is on its way: watch it/, during);
  assert.match(during, /p50 queue time[^]*p99 queue time/, 'both figures shown');
  assert.doesNotMatch(during, /none finished yet/);
  await page.waitForFunction(() => window.lbsim.views()[0].openingOver(), null, { timeout: 30_000 });
  await page.waitForFunction(() => /p50 queue time\s*[\d.]+/.test(document.querySelector('#sim-one-server .readouts').innerText), null, { timeout: 30_000 });
  assert.doesNotMatch(await strip.innerText(), /on its way/, 'said only while nothing has finished');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 1's waits chart only grows its axes during a run, in a few steps, through a slowed server and back", async () => {
  const { page, errors } = await openChapterOne(1440, 900);
  await page.waitForFunction(() => window.lbsim.views()[0].openingOver(), null, { timeout: 30_000 });
  // Reader 13's run: some seconds, the server slowed (its p99 climbs past
  // 100 ms), given back its speed, then on.
  const ends = [];
  const sample = async (ms) => {
    for (const start = Date.now(); Date.now() - start < ms;) {
      const now = await axisEnds(page);
      if (now && (ends.length === 0 || now.join() !== ends.at(-1).at(-1).join())) ends.push([Date.now(), now]);
      await page.waitForTimeout(100);
    }
  };
  const press = async (key) => {
    await page.locator('#sim-one-server-topology').focus();
    await page.keyboard.press(key);
  };
  await sample(8_000);
  await press('0');
  await sample(8_000);
  await press('0');
  await sample(8_000);
  const drawn = ends.map(([, [time, count]]) => `0–${time} ms × 0–${count}`);
  for (let i = 1; i < ends.length; i += 1) {
    const [[, [time0, count0]], [, [time1, count1]]] = [ends[i - 1], ends[i]];
    assert.ok(time1 >= time0 && count1 >= count0, `an axis came back: ${drawn.slice(i - 1, i + 1).join(' then ')} (${drawn.join(', ')})`);
  }
  // A change of end less than a second after the last is the same glide.
  const rescales = ends.filter(([at], i) => i > 0 && at - ends[i - 1][0] > 1_000).length;
  assert.ok(rescales <= 6, `${rescales} rescales in 24 s: ${drawn.join(', ')}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** Whether boxes `a` and `b` ([left, top, right, bottom]) overlap. */
const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} and load 1.05 chapter 1's median and mean are named apart`, async () => {
    const { page, errors } = await openChapterOne(width, height);
    const load = page.locator('#sim-one-server-load');
    if (!(await load.isVisible())) await page.locator('#sim-one-server .more').click();
    await load.focus();
    for (let presses = 0; !(await load.getAttribute('aria-valuetext')).startsWith('1.05'); presses += 1) {
      assert.ok(presses < 40, `the load reads ${await load.getAttribute('aria-valuetext')}`);
      await page.keyboard.press('ArrowRight');
    }
    await page.evaluate(() => document.getElementById('sim-one-server').scrollIntoView({ block: 'start' }));
    await page.waitForFunction(() => window.lbsim.views()[0].simTime() > 2_500, null, { timeout: 60_000 });
    await page.waitForTimeout(1_000);
    // A name is written on one line, or on two where one has no room
    // clear of the lines: its word, and its figure under it at its left.
    const [marks, uprights, written] = await page.evaluate(() => {
      const chart = document.querySelector('#sim-one-server-chart-waits');
      const texts = chart.texts ?? [];
      const names = texts.flatMap((t) => {
        if (/^(median|mean|p99) /.test(t.text)) return [t];
        if (!/^(median|mean|p99)$/.test(t.text)) return [];
        const under = texts.find((u) => Math.abs(u.box[0] - t.box[0]) < 2 && u.box[1] > t.box[1] && u.box[1] - t.box[3] < 10 && /ms$/.test(u.text));
        return under ? [{ text: `${t.text} ${under.text}`, box: [t.box[0], t.box[1], Math.max(t.box[2], under.box[2]), under.box[3]] }] : [];
      });
      return [names, chart.uprights ?? [], texts.filter((t) => /^(median|mean|p99)|ms$/.test(t.text))];
    });
    await page.locator('#sim-one-server-chart-waits').screenshot({ path: artifact(`chapter-one-names-${width}.png`) });
    const named = marks.map((m) => m.text);
    assert.deepEqual(named.map((n) => n.split(' ')[0]).sort(), ['mean', 'median', 'p99'], `names drawn: ${named} (of ${written.map((t) => `${t.text} ${t.box.map(Math.round)}`).join(', ')}; lines at ${[...new Set(uprights.map(Math.round))]})`);
    const figures = Object.fromEntries(named.map((n) => [n.split(' ')[0], Number.parseFloat(n.split(' ')[1])]));
    assert.ok(Math.abs(figures.mean - figures.median) < figures.median * 0.25, `median and mean close, as at 1.05: ${named}`);
    for (let i = 0; i < marks.length; i += 1) {
      for (let k = i + 1; k < marks.length; k += 1) {
        assert.ok(!overlap(marks[i].box, marks[k].box), `"${marks[i].text}" ${marks[i].box.map(Math.round)} overlaps "${marks[k].text}" ${marks[k].box.map(Math.round)}`);
      }
    }
    // Each name stands beside the lines, never across one: the median's
    // name written over the mean's line hid it where the two nearly touch.
    assert.ok(new Set(uprights.map(Math.round)).size >= 3, `the marks' lines drawn: ${uprights}`);
    for (const { text, box } of marks) {
      const crossed = uprights.filter((x) => x > box[0] + 1 && x < box[2] - 1);
      assert.deepEqual(crossed.map(Math.round), [], `"${text}" ${box.map(Math.round)} is written across a line (lines at ${[...new Set(uprights.map(Math.round))]}; names at ${marks.map((m) => `${m.text} ${m.box.map(Math.round)}`).join(", ")})`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
