// A server's labels have room the request dots do not cross: requests stop
// short of the names written at the rows' entrances (and of a state's
// word such as "slow", placed among them), so that a reader reads "2"
// rather than a dot over it. On a phone a dot printed over server 2's name
// in chapter 2, and "slow" sat among the dots in chapter 3. Read by
// pixels: over 8 s of each chapter, no pixel of the band the names are
// written in takes a request's or a response's colour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, artifact, skipQuestion } from './lib.mjs';

useBrowser();

/**
 * Watches chapter `id`'s picture for `ms` wall ms and counts, each frame,
 * the pixels in the servers' names' band (from the leftmost name's left
 * edge to the rightmost's right, over the rows) in a dot's colours.
 */
const dotsOverNames = (page, id, ms) => page.evaluate(async ([id, ms]) => {
  const root = document.getElementById(`sim-${id}`);
  const index = [...document.querySelectorAll('[data-lbsim]')].indexOf(root);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  while (!window.lbsim.views()[index] || window.lbsim.views()[index].frameCosts().length === 0) await frame();
  const view = window.lbsim.views()[index];
  const canvas = root.querySelector('.topology');
  const colour = (name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    root.append(probe);
    const rgb = getComputedStyle(probe).color.match(/\d+/g).map(Number);
    probe.remove();
    return rgb;
  };
  const dots = [colour('--c-request'), colour('--c-response')];
  const like = (data, i) => dots.some((c) => c.every((v, k) => Math.abs(data[i + k] - v) <= 30));
  let worst = { pixels: 0, at: 0, band: [] };
  for (const start = performance.now(); performance.now() - start < ms; await frame()) {
    const rows = JSON.parse(view.servers()).filter((s) => s.name);
    if (rows.length === 0) continue;
    const left = Math.min(...rows.map((s) => s.name[0]));
    const right = Math.max(...rows.map((s) => s.name[1]));
    const top = Math.min(...rows.map((s) => s.cell[1]));
    const bottom = Math.max(...rows.map((s) => s.cell[1] + s.cell[3]));
    const scale = canvas.width / canvas.clientWidth;
    const band = [left, top, right - left, bottom - top].map((v) => Math.round(v * scale));
    const { data } = canvas.getContext('2d').getImageData(...band);
    let pixels = 0;
    for (let i = 0; i < data.length; i += 4) pixels += like(data, i);
    if (pixels > worst.pixels) worst = { pixels, at: Math.round(performance.now() - start), band: [left, top, right, bottom].map(Math.round) };
  }
  return worst;
}, [id, ms]);

for (const [width, height] of [[390, 844], [1440, 900]]) {
  for (const [id, name] of [['spike', 'chapter 2'], ['continuous', 'chapter 3']]) {
    test(`at ${width} × ${height} no request dot crosses ${name}'s server names`, async () => {
      const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
      await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start' }), id);
      const worst = await dotsOverNames(page, id, 8000);
      await page.locator(`#sim-${id} .topology`).screenshot({ path: artifact(`labels-${id}-${width}.png`) });
      assert.equal(worst.pixels, 0, `${worst.pixels} pixels in a dot's colours over the names' band ${worst.band.join(', ')} (left, top, right, bottom) at ${worst.at} ms`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

// No label in the picture overprints another, where a server is slowed:
// chapter 1's "¼ speed", written just after the lone server's name once
// it had bounced, covered its queue's length. Every text the picture
// writes is recorded as it is written (its box from the browser's own
// measure), and each frame's are checked pairwise.

/** Records, on each canvas, the box of every text written since it was last cleared whole. */
function recordLabels() {
  const { fillText, clearRect } = CanvasRenderingContext2D.prototype;
  CanvasRenderingContext2D.prototype.clearRect = function (x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) this.canvas.labels = [];
    return clearRect.call(this, x, y, w, h);
  };
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    const m = this.measureText(text);
    const t = this.getTransform();
    const css = this.canvas.clientWidth > 0 ? this.canvas.clientWidth / this.canvas.width : 1;
    const [left, top] = [t.a * (x - m.actualBoundingBoxLeft) + t.e, t.d * (y - m.actualBoundingBoxAscent) + t.f];
    const [right, bottom] = [t.a * (x + m.actualBoundingBoxRight) + t.e, t.d * (y + m.actualBoundingBoxDescent) + t.f];
    if (this.globalAlpha > 0 && String(text).trim() !== '') {
      (this.canvas.labels ??= []).push({ text: String(text), box: [left, top, right, bottom].map((v) => v * css) });
    }
    return fillText.call(this, text, x, y, ...rest);
  };
}

/**
 * Watches the pictures (topology canvases) inside `root` for `ms` wall ms;
 * resolves to the worst overlap of two labels seen (px², with their texts).
 */
const labelOverlaps = (page, root, ms) => page.evaluate(async ([root, ms]) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const canvases = [...document.querySelector(root).querySelectorAll('canvas.topology')];
  let worst = { area: 0, texts: [], seen: 0 };
  for (const start = performance.now(); performance.now() - start < ms; await frame()) {
    for (const canvas of canvases) {
      const labels = canvas.labels ?? [];
      worst.seen = Math.max(worst.seen, labels.length);
      for (let i = 0; i < labels.length; i += 1) {
        for (let j = i + 1; j < labels.length; j += 1) {
          const [a, b] = [labels[i].box, labels[j].box];
          const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
          const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
          // A pixel's touch is antialiasing, not overprinting.
          if (w > 1 && h > 1 && w * h > worst.area) {
            worst = { ...worst, area: Math.round(w * h), texts: [labels[i].text, labels[j].text], boxes: [a, b].map((box) => box.map(Math.round)) };
          }
        }
      }
    }
  }
  return worst;
}, [root, ms]);

/** Opens `url` at `width` × `height` with the label recorder in place. */
async function openRecorded(url, { width, height, hash = '' }) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  await context.addInitScript(recordLabels);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(url + (hash ? `#${hash}` : ''));
  await page.waitForFunction(() => window.lbsim !== undefined, null, { timeout: 30_000 });
  return { page, errors };
}

/** Slows server `index` of chapter `id` by a click on its slots, as a reader does; waits until it is slowed. */
async function slowByClick(page, id, index) {
  const view = await page.evaluate((id) => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === `sim-${id}`), id);
  await skipQuestion(page, id);
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 1500, view, { timeout: 60_000 });
  const canvas = await page.locator(`#sim-${id}-topology`).boundingBox();
  const [x, y, w, h] = JSON.parse(await page.evaluate((i) => window.lbsim.views()[i].servers(), view))[index].cell;
  await page.mouse.click(canvas.x + x + w * 0.75, canvas.y + y + h / 2);
  await page.waitForFunction(([i, s]) => window.lbsim.views()[i].serverSpeeds()[s] === 0.25, [view, index], { timeout: 5_000 });
}

for (const [width, height] of [[1440, 900], [390, 844]]) {
  for (const [id, name, index] of [['one-server', 'chapter 1', 0], ['continuous', 'chapter 3', 3], ['power-of-two', 'chapter 5', 4]]) {
    test(`at ${width} × ${height} no label of ${name}'s picture overprints another once a server is slowed`, async () => {
      const { page, errors } = await openRecorded(`${server.url}explain.html`, { width, height });
      await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start', behavior: 'instant' }), id);
      await skipQuestion(page, id);
      await slowByClick(page, id, index);
      const worst = await labelOverlaps(page, `#sim-${id}`, 8000);
      await page.locator(`#sim-${id} .topology`).first().screenshot({ path: artifact(`labels-slowed-${id}-${width}.png`) });
      assert.ok(worst.seen >= 3, `the picture wrote ${worst.seen} labels`);
      assert.equal(worst.area, 0, `"${worst.texts[0]}" and "${worst.texts[1]}" overprint by ${worst.area} px² (boxes ${JSON.stringify(worst.boxes)})`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
  for (const [page_, name] of [['index.html', 'the lab'], ['embed.html', 'an embed']]) {
    test(`at ${width} × ${height} no label of ${name}'s picture overprints another with a server slowed`, async () => {
      const hash = 'policy=random&load=0.95&failures=0s:slow:3:x=0.25';
      const { page, errors } = await openRecorded(`${server.url}${page_}`, { width, height, hash });
      await page.waitForFunction(() => window.lbsim.views()[0].simTime() > 1500, null, { timeout: 60_000 });
      const worst = await labelOverlaps(page, 'body', 8000);
      assert.ok(worst.seen >= 3, `the picture wrote ${worst.seen} labels`);
      assert.equal(worst.area, 0, `"${worst.texts[0]}" and "${worst.texts[1]}" overprint by ${worst.area} px² (boxes ${JSON.stringify(worst.boxes)})`);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

// A decision's badges stand left of what a row writes at its entrance:
// a slowed server's word goes before its name once its queue takes the
// lane, just where a badge was drawn (CI's run drew power of two's "16"
// over chapter 5's "¼ speed" before that server had bounced a request).
// Paused, each Step's decision shows its badges in full; the test steps
// until three decisions have compared the slowed server.
test("paused, a decision's badges stand clear of a slowed server's word", async () => {
  const hash = 'policy=power-of-d&load=0.95&queue_timeout_ms=60000&failures=0s:slow:3:x=0.25&seed=4';
  const { page, errors } = await openRecorded(`${server.url}index.html`, { width: 1440, height: 900, hash });
  await page.waitForFunction(() => window.lbsim.views()[0].simTime() > 3000, null, { timeout: 60_000 });
  await page.click('#play');
  let compared = 0;
  for (let i = 0; i < 200 && compared < 3; i += 1) {
    await page.click('#step');
    await page.waitForTimeout(30);
    const shown = JSON.parse(await page.evaluate(() => window.lbsim.views()[0].decision() ?? 'null'));
    if (!shown || shown.ringInk !== 1 || !shown.decision.candidates.some((c) => c.server === 3)) continue;
    compared += 1;
    const worst = await labelOverlaps(page, 'body', 200);
    const texts = await page.evaluate(() => document.querySelector('canvas.topology').labels.map((l) => l.text));
    assert.ok(texts.includes('¼ speed'), `the slowed server's word is written: ${JSON.stringify(texts)}`);
    assert.equal(worst.area, 0, `"${worst.texts[0]}" and "${worst.texts[1]}" overprint by ${worst.area} px² (boxes ${JSON.stringify(worst.boxes)})`);
  }
  await page.locator('.topology').first().screenshot({ path: artifact('labels-badges-slowed-1440.png') });
  assert.ok(compared >= 3, `${compared} decisions compared the slowed server`);
  assert.deepEqual(errors, []);
  await page.context().close();
});
