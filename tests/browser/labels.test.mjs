// A server's labels have room the request dots do not cross: requests stop
// short of the names written at the rows' entrances (and of a state's
// word such as "slow", placed among them), so that a reader reads "2"
// rather than a dot over it. On a phone a dot printed over server 2's name
// in chapter 2, and "slow" sat among the dots in chapter 3. Read by
// pixels: over 8 s of each chapter, no pixel of the band the names are
// written in takes a request's or a response's colour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, artifact, skipQuestion, runTo, recordLabels } from './lib.mjs';

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
// measure, lib.mjs's recordLabels), and each frame's are checked pairwise.

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

/**
 * Records, on each canvas, each path it strokes or fills since it was last
 * cleared whole: its colour, its line width and its segments (CSS px), in
 * one sequence with the texts recordLabels records (`seq`), so that a
 * test can tell a mark over a label from one under a label's plate. Added
 * after recordLabels, whose records it numbers.
 */
function recordMarks() {
  const proto = CanvasRenderingContext2D.prototype;
  const { beginPath, moveTo, lineTo, closePath, rect, roundRect, arc, stroke, fill, clearRect, fillText } = proto;
  let seq = 0;
  const at = (context, x, y) => {
    const t = context.getTransform();
    const css = context.canvas.clientWidth > 0 ? context.canvas.clientWidth / context.canvas.width : 1;
    return [(t.a * x + t.c * y + t.e) * css, (t.b * x + t.d * y + t.f) * css];
  };
  const edges = (context, x, y, w, h) => {
    const corners = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(([cx, cy]) => at(context, cx, cy));
    context.pathSegments.push(...corners.map((c, i) => [...c, ...corners[(i + 1) % 4]]));
    context.pathStart = context.pathAt = corners[0];
  };
  proto.clearRect = function (x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) this.canvas.marks = [];
    return clearRect.call(this, x, y, w, h);
  };
  proto.beginPath = function () {
    this.pathSegments = [];
    this.pathDots = [];
    this.pathStart = this.pathAt = null;
    return beginPath.call(this);
  };
  // A dot (a request's or a response's mark) is kept as its box.
  proto.arc = function (x, y, r, ...rest) {
    const [[left, top], [right, bottom]] = [at(this, x - r, y - r), at(this, x + r, y + r)];
    (this.pathDots ??= []).push([left, top, right, bottom]);
    return arc.call(this, x, y, r, ...rest);
  };
  proto.moveTo = function (x, y) {
    this.pathStart = this.pathAt = at(this, x, y);
    return moveTo.call(this, x, y);
  };
  proto.lineTo = function (x, y) {
    const to = at(this, x, y);
    if (this.pathAt) (this.pathSegments ??= []).push([...this.pathAt, ...to]);
    this.pathAt = to;
    return lineTo.call(this, x, y);
  };
  proto.closePath = function () {
    if (this.pathAt && this.pathStart) (this.pathSegments ??= []).push([...this.pathAt, ...this.pathStart]);
    this.pathAt = this.pathStart;
    return closePath.call(this);
  };
  proto.rect = function (x, y, w, h) {
    this.pathSegments ??= [];
    edges(this, x, y, w, h);
    return rect.call(this, x, y, w, h);
  };
  proto.roundRect = function (x, y, w, h, ...radii) {
    this.pathSegments ??= [];
    edges(this, x, y, w, h);
    return roundRect.call(this, x, y, w, h, ...radii);
  };
  const record = (context, kind, style, args) => {
    if (args.length > 0 || context.globalAlpha === 0 || !(context.pathSegments?.length || context.pathDots?.length)) return;
    const width = context.lineWidth * Math.abs(context.getTransform().a) * (context.canvas.clientWidth > 0 ? context.canvas.clientWidth / context.canvas.width : 1);
    (context.canvas.marks ??= []).push({ kind, style, width, segments: [...(context.pathSegments ?? [])], dots: [...(context.pathDots ?? [])], seq: seq++ });
  };
  proto.stroke = function (...args) {
    record(this, 'stroke', this.strokeStyle, args);
    return stroke.apply(this, args);
  };
  proto.fill = function (...args) {
    record(this, 'fill', this.fillStyle, args);
    return fill.apply(this, args);
  };
  proto.fillText = function (...args) {
    const result = fillText.apply(this, args);
    const last = this.canvas.labels?.at(-1);
    if (last && last.seq === undefined) last.seq = seq++;
    return result;
  };
}

/** Opens `url` at `width` × `height` with the label recorder (and, asked, the marks' one) in place. */
async function openRecorded(url, { width, height, hash = '', marks = false }) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  await context.addInitScript(recordLabels);
  if (marks) await context.addInitScript(recordMarks);
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
  await runTo(page, view, 1500);
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

// Running, a decision is held 1.6 to 2.4 s with its badges ("saw 25"),
// which on a phone reached over the clients' column for all that time
// (chapters 5 and 6). Each frame, no text of the picture may cover a
// client's cell (where the view's hook says the cells are) nor another
// text, and each badge of the decision drawn is written, in one of its
// wordings ("saw 25", or "25" where that does not fit; "stale", or "?"),
// on its server's row and left of it (a queue's "13" stood in for a
// badge "13" when any text would do). No badge may be dropped: "stale",
// which has no shorter word, has the mark "?" that the legend explains.
// Once past (the rows, or the copies, have moved on), a badge says what
// the chooser saw then ("saw 6/10 then", "6/10 then"), never a bare figure
// beside rows that write another, standing before its row or on its
// lane (a queue's shortest is "2 then"): where no wording fits either,
// it is not written, and it is counted apart.
for (const [id, name] of [['power-of-two', 'chapter 5'], ['stale', 'chapter 6']]) {
  test(`at 390 × 844 ${name}'s badges cover no client and no other label`, async (t) => {
    const { page, errors } = await openRecorded(`${server.url}explain.html`, { width: 390, height: 844 });
    await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start', behavior: 'instant' }), id);
    await skipQuestion(page, id);
    const seen = await page.evaluate(async (id) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const index = [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === `sim-${id}`);
      const canvas = document.getElementById(`sim-${id}-topology`);
      while (window.lbsim.views()[index].simTime() < 1500) await frame();
      const view = window.lbsim.views()[index];
      const overlap = (a, b) => Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
      const seen = { frames: 0, badges: 0, wordings: {}, missing: [], pastUnwritten: 0, pastWritten: 0, bare: [], worst: { area: 0 } };
      for (const start = performance.now(); performance.now() - start < 8000; await frame()) {
        const labels = canvas.labels ?? [];
        const clients = JSON.parse(view.clients()).map(([x, y, w, h]) => [x, y, x + w, y + h]);
        for (const [i, label] of labels.entries()) {
          for (const cell of clients) {
            const area = overlap(label.box, cell);
            if (area > 1 && area > seen.worst.area) seen.worst = { area: Math.round(area), texts: [label.text, 'a client'], boxes: [label.box, cell] };
          }
          for (const other of labels.slice(i + 1)) {
            const area = overlap(label.box, other.box);
            if (area > 1 && area > seen.worst.area) seen.worst = { area: Math.round(area), texts: [label.text, other.text], boxes: [label.box, other.box] };
          }
        }
        const shown = JSON.parse(view.decision() ?? 'null');
        if (!shown || shown.ringInk === 0) continue;
        seen.frames += 1;
        const rows = JSON.parse(view.servers());
        for (const [server, wordings] of shown.badges) {
          const [x, y, , h] = rows[server].cell;
          // Once past, on its row's lane where there is no room before it.
          const left = shown.badgesPast && rows[server].slots_box ? rows[server].slots_box[0] : x;
          const beside = (l) => l.box[2] <= left && (l.box[1] + l.box[3]) / 2 > y && (l.box[1] + l.box[3]) / 2 < y + h;
          const written = labels.find((l) => wordings.includes(l.text) && beside(l));
          if (!written && shown.badgesPast) {
            seen.pastUnwritten += 1;
            continue;
          }
          if (!written) {
            seen.missing.push([server, wordings]);
            continue;
          }
          if (shown.badgesPast && /^[0-9]/.test(written.text) && !/ then$/.test(written.text)) seen.bare.push([server, written.text]);
          if (shown.badgesPast) seen.pastWritten += 1;
          seen.badges += 1;
          const wording = written.text === wordings[0] ? 'longest' : written.text;
          seen.wordings[wording] = (seen.wordings[wording] ?? 0) + 1;
        }
      }
      return seen;
    }, id);
    await page.locator(`#sim-${id}-topology`).screenshot({ path: artifact(`labels-badges-${id}-390.png`) });
    console.log(`${name} at 390 × 844: ${seen.frames} frames drew a decision, ${seen.badges} badges written: ${JSON.stringify(seen.wordings)}; past badges: ${seen.pastWritten} written, ${seen.pastUnwritten} found no room`);
    // Chapter 6's past copies are written on a phone, "13 then" where
    // "saw 13 then" has no room (a bracketed "(13)" always fitted, but
    // read as the row's present, reader 16): between the clients and the
    // rows one run at 3 files at once wrote none of 774; a past badge with
    // no room there stands on its row's lane, where the lane is free.
    // Chapter 5's past badges, whose shortest ("2 then") fits before the
    // row, are nearly all written (952 of 952 in one run; 59 of 332
    // frames wrote one before "2 then").
    if (id === 'stale') {
      await t.test('its past copies are written', () => {
        assert.ok(seen.pastWritten > 0, `of ${seen.pastWritten + seen.pastUnwritten} past badges, none written`);
      });
    } else {
      const past = seen.pastWritten + seen.pastUnwritten;
      assert.ok(past >= 30 && seen.pastWritten >= 0.9 * past, `of ${past} past badges, ${seen.pastWritten} written`);
    }
    assert.ok(seen.frames >= 30, `${seen.frames} frames drew a decision`);
    assert.deepEqual(seen.missing.slice(0, 3), [], `of ${seen.badges + seen.missing.length} badges, these were not written`);
    assert.deepEqual(seen.bare.slice(0, 3), [], 'a past badge wrote a bare figure');
    assert.equal(seen.worst.area, 0, `"${seen.worst.texts?.[0]}" and ${seen.worst.texts?.[1]} overlap by ${seen.worst.area} px² (boxes ${JSON.stringify(seen.worst.boxes?.map((b) => b.map(Math.round)))})`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// What a decision draws over the rows, its lines and the rings round its
// candidates, crosses no count and no label, nor does a copy's needle
// (chapter 6): on a phone the rings ran round whole rows, over the count
// of slots in use ("10/10") to the picture's edge, and a needle marking a
// copy one or two above the true load stood on the queue's length ("3").
// Each frame, every stroke and every fill in the ink colour is checked
// against every text written: a stroke may pass under a text only where
// the text's plate, drawn after it, hides it (a badge's line), and a fill
// may only be the plate a text stands on.
for (const [id, name] of [['power-of-two', 'chapter 5'], ['stale', 'chapter 6']]) {
  test(`at 390 × 844 nothing ${name}'s decision draws covers a count or a label`, async () => {
    const { page, errors } = await openRecorded(`${server.url}explain.html`, { width: 390, height: 844, marks: true });
    await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start', behavior: 'instant' }), id);
    await skipQuestion(page, id);
    const seen = await page.evaluate(async (id) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const root = document.getElementById(`sim-${id}`);
      const index = [...document.querySelectorAll('[data-lbsim]')].indexOf(root);
      const canvas = document.getElementById(`sim-${id}-topology`);
      while (window.lbsim.views()[index].simTime() < 1500) await frame();
      const view = window.lbsim.views()[index];
      // The ink colour as the canvas writes a style back.
      const probe = document.createElement('span');
      probe.style.color = 'var(--ink)';
      root.append(probe);
      const scratch = document.createElement('canvas').getContext('2d');
      scratch.strokeStyle = getComputedStyle(probe).color;
      const ink = scratch.strokeStyle;
      probe.remove();
      const contains = (outer, inner) => outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];
      const boxOf = (segments) => {
        const xs = segments.flatMap(([x0, , x1]) => [x0, x1]);
        const ys = segments.flatMap(([, y0, , y1]) => [y0, y1]);
        return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      };
      // How deep a stroke `width` wide along a segment, its ends cut
      // square, reaches into a box (px; 0 or less where it stays out).
      const reach = ([x0, y0, x1, y1], width, box) => {
        const length = Math.hypot(x1 - x0, y1 - y0);
        if (length === 0) return 0;
        const [ux, uy] = [(x1 - x0) / length, (y1 - y0) / length];
        let deepest = -Infinity;
        for (let along = 0; along <= length; along += Math.min(0.5, length)) {
          for (let across = -width / 2; across <= width / 2; across += width / 8) {
            const [x, y] = [x0 + ux * along - uy * across, y0 + uy * along + ux * across];
            deepest = Math.max(deepest, Math.min(x - box[0], box[2] - x, y - box[1], box[3] - y));
          }
        }
        return deepest;
      };
      const seen = { frames: 0, strokes: 0, fills: 0, worst: { depth: -Infinity } };
      for (const start = performance.now(); performance.now() - start < 8000; await frame()) {
        const shown = JSON.parse(view.decision() ?? 'null');
        if (!shown || shown.ringInk === 0) continue;
        seen.frames += 1;
        const labels = canvas.labels ?? [];
        const marks = (canvas.marks ?? []).filter((m) => m.style === ink);
        // A text's plate may be of any colour: a past decision's badge
        // stands on the panel's colour, outlined in ink.
        const plates = (canvas.marks ?? []).filter((m) => m.kind === 'fill').map((m) => ({ ...m, box: boxOf(m.segments) }));
        const onPlate = (label, after) => plates.some((p) => p.seq > after && p.seq < label.seq && contains(p.box, label.box));
        for (const mark of marks) {
          if (mark.kind === 'stroke') seen.strokes += 1; else seen.fills += 1;
          for (const label of labels) {
            let depth;
            if (mark.kind === 'stroke') {
              if (onPlate(label, mark.seq)) continue;
              depth = Math.max(...mark.segments.map((s) => reach(s, mark.width, label.box)));
            } else {
              const box = boxOf(mark.segments);
              if (contains(box, label.box)) continue;
              depth = Math.min(box[2] - label.box[0], label.box[2] - box[0], box[3] - label.box[1], label.box[3] - box[1]);
            }
            if (depth > seen.worst.depth) {
              seen.worst = { depth: Math.round(depth * 10) / 10, mark: mark.kind, width: mark.width, text: label.text, label: label.box.map(Math.round), at: boxOf(mark.segments).map(Math.round) };
            }
          }
        }
      }
      return seen;
    }, id);
    await page.locator(`#sim-${id}-topology`).screenshot({ path: artifact(`labels-decision-marks-${id}-390.png`) });
    const { worst } = seen;
    const closest = `a ${worst.mark} ${worst.width} px wide (spanning ${JSON.stringify(worst.at)}) reaches ${worst.depth} px into "${worst.text}" (box ${JSON.stringify(worst.label)})`;
    console.log(`${name} at 390 × 844: ${seen.frames} frames drew a decision; ${seen.strokes} strokes and ${seen.fills} fills in the ink checked; closest: ${closest}`);
    assert.ok(seen.frames >= 30, `${seen.frames} frames drew a decision`);
    // A pixel's touch is antialiasing, not covering.
    assert.ok(worst.depth <= 1, closest);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// A bounce's mark and count stand at a row's entrance on a plate of their
// own. In chapter 4's small pictures the dots queued at the entrance and
// passing it crowded them from every side, and a reader (reader 10) saw
// the counts covered. Requests stop short of the marks as of the names:
// each frame, every dot either picture draws (its box, as recorded) is
// checked against every bounce mark's plate, which it may not reach.
test("at 1440 × 900 no dot of chapter 4's pictures reaches a bounce's mark or count", async () => {
  const { page, errors } = await openRecorded(`${server.url}explain.html`, { width: 1440, height: 900, marks: true });
  await page.evaluate(() => document.getElementById('sim-repick').scrollIntoView({ block: 'start', behavior: 'instant' }));
  await skipQuestion(page, 'repick');
  const seen = await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const root = document.getElementById('sim-repick');
    const index = [...document.querySelectorAll('[data-lbsim]')].indexOf(root);
    while (!window.lbsim.views()[index] || window.lbsim.views()[index].frameCosts().length === 0) await frame();
    const view = window.lbsim.views()[index];
    const pictures = [['bounceMarks', root.querySelector('.pane-a canvas.topology')], ['twinBounceMarks', root.querySelector('.pane-b canvas.topology')]];
    const seen = { frames: 0, plates: 0, dots: 0, worst: { depth: 0 } };
    // 10 s of frames, and on until a bounce has been marked (a loaded
    // machine plays the run more slowly), up to a minute.
    for (const start = performance.now(); (performance.now() - start < 10_000 || seen.plates === 0) && performance.now() - start < 60_000; await frame()) {
      seen.frames += 1;
      for (const [hook, canvas] of pictures) {
        const plates = JSON.parse(view[hook]() ?? '[]').map(({ server, plate: [x, y, w, h] }) => ({ server, box: [x, y, x + w, y + h] }));
        const dots = (canvas.marks ?? []).flatMap((mark) => mark.dots ?? []);
        seen.plates += plates.length;
        seen.dots += dots.length;
        for (const { server, box } of plates) {
          for (const dot of dots) {
            const depth = Math.min(dot[2] - box[0], box[2] - dot[0], dot[3] - box[1], box[3] - dot[1]);
            if (depth > seen.worst.depth) seen.worst = { depth: Math.round(depth * 10) / 10, picture: hook, server, plate: box.map(Math.round), dot: dot.map(Math.round) };
          }
        }
      }
    }
    return seen;
  });
  await page.locator('#sim-repick .pictures').screenshot({ path: artifact('labels-repick-bounces-1440.png') });
  console.log(`chapter 4: ${seen.frames} frames, ${seen.plates} plates and ${seen.dots} dots checked; worst ${JSON.stringify(seen.worst)}`);
  assert.ok(seen.plates > 0 && seen.dots > 0, `${seen.plates} plates, ${seen.dots} dots`);
  // A pixel's touch is antialiasing, not covering.
  assert.ok(seen.worst.depth <= 1, `a dot reaches ${seen.worst.depth} px into a bounce's plate: ${JSON.stringify(seen.worst)}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Chapter 6 on a phone: its copies' column heading ("client 0 heard, 18 ms
// to 1.4 s ago") pushed out the servers' tier name, and the rows, moved
// left for the column, left "Clients · 20" room only for "20". Each tier
// is named in full over its picture, the heading in what room is left:
// on a phone the copies' ages alone ("9 ms–586 ms ago"), which readers 11
// and 12 missed there (the ringed client and the legend say whose).
test("at 390 × 844 chapter 6's picture names its clients and servers in full beside the copies' heading", async () => {
  const { page, errors } = await openRecorded(`${server.url}explain.html`, { width: 390, height: 844 });
  await page.evaluate(() => document.getElementById('sim-stale').scrollIntoView({ block: 'start', behavior: 'instant' }));
  await skipQuestion(page, 'stale');
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-stale'));
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 1500, index, { timeout: 60_000 });
  const texts = await page.evaluate(() => (document.getElementById('sim-stale-topology').labels ?? []).map((l) => ({ text: l.text, box: l.box })));
  const header = texts.filter((l) => l.box[1] < 24);
  await page.locator('#sim-stale-topology').screenshot({ path: artifact('labels-stale-header-390.png') });
  const said = header.map((l) => l.text);
  assert.ok(said.includes('Clients · 20'), `the header: ${JSON.stringify(said)}`);
  assert.ok(said.some((t) => t.startsWith('Servers · 10')), `the header: ${JSON.stringify(said)}`);
  assert.ok(said.some((t) => /^(client 0 |[0-9.]+ m?s(–[0-9.]+ m?s)? ago, (client 0 )?)?heard$/.test(t)), `the header: ${JSON.stringify(said)}`);
  for (const [i, a] of header.entries()) {
    for (const b of header.slice(i + 1)) {
      assert.ok(a.box[2] <= b.box[0] || b.box[2] <= a.box[0], `"${a.text}" and "${b.text}" overlap`);
    }
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Chapter 6's column of client 0's copies read as unlabelled (reader 14):
// its heading, "client 0 heard, 16 ms to 686 ms ago", ended over the
// column in its ages, its name over the queues to the left. The heading
// now ends in "heard", set right-aligned over the numbers it names, at
// 1440 × 900 with the client's name, on a phone after the ages.
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} chapter 6's column of copies is headed "heard" over its numbers`, async () => {
    const { page, errors } = await openRecorded(`${server.url}explain.html`, { width, height });
    await page.evaluate(() => document.getElementById('sim-stale').scrollIntoView({ block: 'start', behavior: 'instant' }));
    await skipQuestion(page, 'stale');
    const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-stale'));
    await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 1500, index, { timeout: 60_000 });
    await page.locator('#sim-stale button.play').click();
    await page.waitForTimeout(300);
    const texts = await page.evaluate(() => (document.getElementById('sim-stale-topology').labels ?? []).map((l) => ({ text: l.text, box: l.box })));
    const rows = JSON.parse(await page.evaluate((i) => window.lbsim.views()[i].servers(), index));
    // The column's numbers: what each row says client 0 heard, written in its row.
    const numbers = rows.map((row) => texts.find((l) => l.text === row.heard && l.box[1] >= row.cell[1] && l.box[3] <= row.cell[1] + row.cell[3] && l.box[0] > row.cell[0] + row.cell[2] - 60));
    assert.ok(numbers.every(Boolean), `every row's copy written: ${JSON.stringify(rows.map((r) => r.heard))}`);
    const [left, right] = [Math.min(...numbers.map((l) => l.box[0])), Math.max(...numbers.map((l) => l.box[2]))];
    const heading = texts.find((l) => l.box[3] <= rows[0].cell[1] + 2 && /heard$/.test(l.text));
    assert.ok(heading, `a heading ending in "heard": ${JSON.stringify(texts.filter((l) => l.box[1] < 24).map((l) => l.text))}`);
    assert.match(heading.text, width >= 1000 ? /^[0-9.]+ m?s to [0-9.]+ m?s ago, client 0 heard$/ : /heard$/);
    // "heard" stands over the numbers: the heading ends where they end, within a few pixels.
    assert.ok(Math.abs(heading.box[2] - right) <= 4 && heading.box[2] > left, `"${heading.text}" ends at ${heading.box[2]}, the numbers span ${left} to ${right}`);
    await page.locator('#sim-stale-topology').screenshot({ path: artifact(`labels-stale-heard-${width}.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
