// What the topology draws beside its rows so that a chapter's picture
// carries its point without the sentence (a student reader found the
// picture alone did in 2 chapters of 6): chapter 6's column of what
// client 0 heard, a slowed server's hatched slots, chapter 2's totals once
// the spike is over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, skipQuestion, slideTo, artifact, runTo, recordLabels } from './lib.mjs';

useBrowser();

/** The index among the page's views of the one mounted on `id`. */
const viewIndex = (page, id) => page.evaluate((id) => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === id), id);

/** Each server as the view drew it last (see `servers()` in src/web/hooks.rs). */
const drawnServers = async (page, view) => JSON.parse(await page.evaluate((i) => window.lbsim.views()[i].servers(), view));

/**
 * `measure` of the pixels of canvas `canvasId` inside each CSS-pixel box
 * [x, y, w, h], each pixel as [r, g, b] over the page's white (a
 * transparent pixel is the panel showing through).
 */
const inBoxes = (page, canvasId, boxes, measure) => page.evaluate(([canvasId, boxes, measure]) => {
  const canvas = document.getElementById(canvasId);
  const scale = canvas.width / canvas.clientWidth;
  const context = canvas.getContext('2d');
  const of = new Function('pixels', `return (${measure})(pixels);`);
  return boxes.map(([x, y, w, h]) => {
    const { data } = context.getImageData(Math.round(x * scale), Math.round(y * scale), Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale)));
    const pixels = [];
    for (let i = 0; i < data.length; i += 4) {
      const a = data[i + 3] / 255;
      pixels.push([0, 1, 2].map((k) => 255 - a * (255 - data[i + k])));
    }
    return of(pixels);
  });
}, [canvasId, boxes, measure.toString()]);

const luma = ([r, g, b]) => 0.3 * r + 0.59 * g + 0.11 * b;

/**
 * Opens the explainer at 1440 × 900 with chapter `id`'s view in sight and
 * its question skipped; resolves to the page, its errors and the view's index.
 */
async function openChapter(id) {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const view = await viewIndex(page, `sim-${id}`);
  await page.evaluate((id) => document.querySelector(`#sim-${id}`).scrollIntoView({ block: 'center' }), id);
  await skipQuestion(page, id);
  return { page, errors, view };
}

/** The least luma of each box's pixels: ink where a label is written. */
const darkestIn = (page, canvasId, boxes) => inBoxes(page, canvasId, boxes, (pixels) => Math.min(...pixels.map(([r, g, b]) => 0.3 * r + 0.59 * g + 0.11 * b)));

test("chapter 6 writes beside each row what client 0 heard of it, dashes where it never heard with a thousand clients", async () => {
  const { page, errors, view } = await openChapter('stale');
  const look = async () => {
    await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 4000, view, { timeout: 30_000 });
    await page.locator('#stale button.play').click();
    const servers = await drawnServers(page, view);
    // The column right of each row: ink where its number is written.
    const column = servers.map(({ cell: [x, y, w, h] }) => [x + w, y + 2, 40, h - 4]);
    const darkest = await darkestIn(page, 'sim-stale-topology', column);
    return { heard: servers.map((s) => s.heard), darkest };
  };
  const few = await look();
  assert.ok(few.heard.every((h) => /^\d+$/.test(h)), `20 clients: client 0 has heard from every server: ${few.heard}`);
  assert.ok(few.darkest.every((l) => l < 140), `a number written beside every row (least luma): ${few.darkest}`);
  await page.locator('#stale button.play').click();
  await slideTo(page, page.locator('#sim-stale-clients'), '1,000', 'ArrowRight');
  const many = await look();
  const dashes = many.heard.filter((h) => h === '–').length;
  assert.ok(dashes >= 5, `1,000 clients: client 0 never heard from most servers: ${many.heard}`);
  assert.ok(many.darkest.every((l) => l < 200), `a dash or a number beside every row: ${many.darkest}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 6 marks each copy's load with a needle as tall as its row, in ink a reader can find at 1440 × 900", async () => {
  const { page, errors, view } = await openChapter('stale');
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 4000, view, { timeout: 30_000 });
  await page.locator('#stale button.play').click();
  const servers = (await drawnServers(page, view)).filter((s) => /^\d+$/.test(s.heard ?? ''));
  assert.ok(servers.length >= 8, `client 0 heard from most servers: ${servers.length}`);
  for (const { copy_mark: mark, cell } of servers) {
    assert.ok(mark, 'a server client 0 heard from has a mark');
    const [, , w, h] = mark;
    // The caret it replaces was 6 px tall and 7 px wide, under the row.
    assert.ok(h >= 0.8 * cell[3] && w >= 9, `a mark about as tall as its row (${cell[3]} px): ${mark}`);
  }
  // Grey ink, solid or faded with the copy's age (not the busy slots'
  // blue nor the queue's orange), inside each mark's box.
  const inked = await inBoxes(page, 'sim-stale-topology', servers.map((s) => s.copy_mark), (pixels) => pixels.filter(([r, g, b]) => Math.abs(r - b) < 40 && 0.3 * r + 0.59 * g + 0.11 * b < 200).length);
  assert.ok(inked.every((n) => n >= 50), `each mark draws at least 50 px of ink: ${inked}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 6's needles stand on one scale for slots and queue: a copy of 16 against a true 12 stands four queued requests off", async () => {
  const { page, errors, view } = await openChapter('stale');
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 4000, view, { timeout: 30_000 });
  const slots = 10;
  // Paused at a moment with a queue to read the scale off and copies of
  // two loads above the slots; run on a little while there is none.
  const telling = (servers) => servers.some((s) => s.queued > 0 && s.queued < slots)
    && new Set(servers.filter((s) => Number(s.heard) > slots).map((s) => s.heard)).size >= 2;
  let servers;
  for (let tries = 0; tries < 30; tries += 1) {
    await page.locator('#stale button.play').click();
    servers = (await drawnServers(page, view)).filter((s) => /^\d+$/.test(s.heard ?? '') && s.copy_mark);
    if (telling(servers)) break;
    await page.locator('#stale button.play').click();
    await page.waitForTimeout(300);
  }
  // A queued request takes a slot's width: the pitch, read off a queue.
  const queue = servers.find((s) => s.queued > 0 && s.queued < slots);
  assert.ok(queue, `some row has a queue: ${JSON.stringify(servers.map((s) => s.queued))}`);
  const pitch = queue.queue_px / queue.queued;
  const needle = ({ copy_mark: [x, , w] }) => x + w / 2;
  // Above the slots, a load one higher stands a pitch further left (its
  // queue is longer); within them, a pitch further right.
  const above = servers.filter((s) => Number(s.heard) > slots);
  const loads = new Set(above.map((s) => s.heard));
  assert.ok(loads.size >= 2, `copies of at least two loads above the slots: ${[...loads]}`);
  const queueEnds = above.map((s) => needle(s) + (Number(s.heard) - slots) * pitch);
  assert.ok(Math.max(...queueEnds) - Math.min(...queueEnds) < 1.5, `each needle above the slots stands (heard - ${slots}) × ${pitch.toFixed(1)} px left of the queues' end: ${queueEnds.map((x) => x.toFixed(1))} (heard ${above.map((s) => s.heard)})`);
  const within = servers.filter((s) => Number(s.heard) <= slots);
  const boxStarts = within.map((s) => needle(s) - Number(s.heard) * pitch);
  assert.ok(Math.max(...boxStarts) - Math.min(...boxStarts) < 1.5, `each needle within the slots stands heard × pitch right of the slots' start: ${boxStarts}`);
  // So a copy's error is a gap in the picture: where the copy and the
  // truth are both above the slots, the needle stands (heard - true) cells
  // from the queue's far end.
  const queueEnd = queueEnds[0];
  for (const s of above.filter((s) => s.queued > 0 && s.queued < slots)) {
    const fill = queueEnd - s.queue_px;
    const expected = (Number(s.heard) - s.busy - s.queued) * pitch;
    assert.ok(Math.abs((fill - needle(s)) - expected) < 1.5, `heard ${s.heard}, true ${s.busy + s.queued}: the needle stands ${(fill - needle(s)).toFixed(1)} px from the fill, not ${expected.toFixed(1)}`);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 5's rows write the share of requests sent lately once a server is slowed: power of two sends the slowed one little", async () => {
  const { page, errors, view } = await openChapter('power-of-two');
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 3000, view, { timeout: 30_000 });
  // Paused while the row is found and clicked, so that nothing the run
  // writes (its verdict comes at 5 s) can move the picture in between.
  const play = page.locator('#power-of-two button.play');
  await play.click();
  const canvas = await page.locator('#sim-power-of-two-topology').boundingBox();
  const [x, y, w, h] = (await drawnServers(page, view))[4].cell;
  await page.mouse.click(canvas.x + x + w / 2, canvas.y + y + h / 2);
  await page.waitForFunction((i) => window.lbsim.views()[i].serverSpeeds()[4] === 0.25, view, { timeout: 5_000 });
  await play.click();
  const slowedAt = await page.evaluate((i) => window.lbsim.views()[i].simTime(), view);
  await page.waitForFunction(([i, t]) => window.lbsim.views()[i].simTime() > t + 4000, [view, slowedAt], { timeout: 30_000 });
  await page.locator('#power-of-two button.play').click();
  const servers = await drawnServers(page, view);
  const sent = servers.map((s) => s.sent_lately);
  const total = sent.reduce((a, b) => a + b, 0);
  assert.ok(total > 0, `requests were sent in the last 3 s: ${sent}`);
  assert.ok(sent[4] / total < 0.05, `the slowed server 4 was sent under 5% (a fair share is 10%): ${sent}`);
  // Each row's share is written in the column right of it.
  const column = servers.map(({ cell: [cx, cy, cw, ch] }) => [cx + cw, cy + 2, 40, ch - 4]);
  const darkest = await darkestIn(page, 'sim-power-of-two-topology', column);
  assert.ok(darkest.every((l) => l < 140), `a share written beside every row (least luma): ${darkest}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 1's server slows at a click at the centre of its name, as at its slots", async () => {
  const { page, errors, view } = await openChapter('one-server');
  await runTo(page, view, 2000, { timeout: 30_000 });
  const canvas = await page.locator('#sim-one-server-topology').boundingBox();
  const [{ name: [left, right], cell: [x, y, , h] }] = await drawnServers(page, view);
  // The lone server's name is written out left of its row's cell, where a
  // click once did nothing: its centre too.
  assert.ok((left + right) / 2 < x, `the name spans ${left} to ${right}, the cell starts at ${x}`);
  assert.deepEqual(Array.from(await page.evaluate((i) => window.lbsim.views()[i].serverSpeeds(), view)), [1]);
  await page.mouse.click(canvas.x + (left + right) / 2, canvas.y + y + h / 2);
  await page.waitForFunction((i) => window.lbsim.views()[i].serverSpeeds()[0] === 0.25, view, { timeout: 5_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`a slowed server's busy slots keep the busy colour, hatched, not pale as free slots (${colorScheme})`, async () => {
    const hash = 'policy=random&load=0.95&failures=0s:slow:3:x=0.25&seed=3';
    const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 900, height: 600, colorScheme });
    await page.waitForFunction(() => window.lbsim.views()[0].simTime() > 3000, null, { timeout: 30_000 });
    await page.locator('button.play').first().click();
    const servers = await drawnServers(page, 0);
    const canvas = await page.evaluate(() => document.querySelector('canvas[id$="topology"]').id);
    const busy = await page.evaluate(() => getComputedStyle(document.querySelector('.lbsim-view')).getPropertyValue('--c-busy').trim());
    const rgb = [1, 3, 5].map((i) => parseInt(busy.slice(i, i + 2), 16));
    // The slots' box: the right half of the row, short of its "10/10".
    const boxes = servers.map(({ cell: [x, y, w, h] }) => [x + w * 0.55, y + h * 0.35, w * 0.25, h * 0.3]);
    const measure = `(pixels) => pixels.filter((p) => Math.hypot(...p.map((c, k) => c - ${JSON.stringify(rgb)}[k])) < 60).length / pixels.length`;
    const share = await inBoxes(page, canvas, boxes, measure);
    const full = servers.map((s, i) => ({ ...s, i, share: share[i] })).filter((s) => s.i !== 3 && s.busy === 10);
    assert.ok(full.length > 0, `some healthy server full: ${JSON.stringify(servers.map((s) => s.busy))}`);
    assert.equal(servers[3].busy, 10, 'the slowed server is full');
    const healthy = Math.min(...full.map((s) => s.share));
    // Pale, a slowed row's slots showed the busy colour only in their
    // outlines; hatched, they keep most of it, and lose some to the stripes.
    assert.ok(share[3] >= 0.6 * healthy, `the slowed row's slots are mostly the busy colour: ${share[3].toFixed(2)} of their pixels, a full healthy row's ${healthy.toFixed(2)}`);
    assert.ok(share[3] <= 0.9 * healthy, `and hatched, less of it than a healthy row's: ${share[3].toFixed(2)} against ${healthy.toFixed(2)}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// One scale from zero: drawn as a queue's mark (its first three a cell
// each, the rest a bar), 140 and 270 completed stood 1.5× apart (reader 13).
test("once chapter 2's spike is over, each row draws its total completed, to one scale from zero", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const view = await viewIndex(page, 'sim-spike');
  await page.evaluate(() => document.querySelector('#sim-spike').scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => document.querySelector('#spike .play')?.textContent === 'Replay', null, { timeout: 90_000 });
  await page.waitForTimeout(300);
  const servers = await drawnServers(page, view);
  assert.ok(servers.every((s) => s.busy === 0 && s.queued === 0), 'every row idle');
  // Along the middle of each row's lane, the responses' green.
  const lanes = servers.map(({ cell: [x, y, w, h] }) => [x, y + h / 2, w, 1]);
  const green = await inBoxes(page, 'sim-spike-topology', lanes, (pixels) => pixels.filter(([r, g, b]) => g - r > 60 && g >= b).length);
  assert.ok(green.every((n) => n > 10), `a bar in every row: ${green}`);
  const order = (values) => values.map((v, i) => [v, i]).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
  const answered = servers.map((s) => s.answered);
  const [fewest, most] = [order(answered)[0], order(answered).at(-1)];
  assert.ok(green[most] > green[fewest], `the busiest server (${answered[most]} completed) draws the longer bar: ${green} for ${answered}`);
  // Each bar's length (in the canvas's pixels) as its total is to the most.
  const scale = await page.evaluate(() => { const c = document.getElementById('sim-spike-topology'); return c.width / c.clientWidth; });
  const off = answered.map((n, i) => [i, n, green[i], green[most] * n / answered[most]]).filter(([, , drawn, due]) => Math.abs(drawn - due) > 2 * scale);
  assert.deepEqual(off, [], `bars [server, completed, drawn px, px in proportion] off by more than 2 px, the busiest ${answered[most]} at ${green[most]} px`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 3 marks each server as it bounces a request, large enough to find and held long enough to see, with its count beside it", async () => {
  const { page, errors, view } = await openChapter('continuous');
  // The chapter meets its reader past a 10 s warm-up, run ahead a frame's
  // budget at a time: on a loaded machine (CI's full run, two Chromiums
  // at once) that took the whole 10 s watched below, and only the warm-up's
  // first frames drew marks.
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 10_000, view, { timeout: 60_000 });
  // Over 10 s of wall time from the view's next frame, each
  // fresh mark (a server whose count has just grown), and the colour at
  // its cross's centre in the frame that drew it.
  const fresh = await page.evaluate(async (index) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let view;
    while (!(view = window.lbsim.views()[index]) || view.frameCosts().length === 0) await frame();
    const canvas = document.getElementById('sim-continuous-topology');
    const scale = canvas.width / canvas.clientWidth;
    const fresh = new Map();
    for (const start = performance.now(); performance.now() - start < 10_000; await frame()) {
      const marks = JSON.parse(view.bounceMarks());
      for (const { server, bounced, strength, rect: [x, y, w, h] } of marks.filter((m) => m.strength === 1)) {
        const key = `${server}:${bounced}`;
        if (fresh.has(key)) continue;
        const [r, g, b, a] = canvas.getContext('2d').getImageData(Math.round((x + w / 2) * scale), Math.round((y + h / 2) * scale), 1, 1).data;
        fresh.set(key, { server, side: Math.min(w, h), colour: [r, g, b, a], at: Math.round(performance.now() - start) });
      }
    }
    return [...fresh.values()];
  }, view);
  assert.ok(fresh.length >= 3, `at least three bounces marked in 10 s: ${JSON.stringify(fresh)}`);
  assert.ok(fresh.every((m) => m.side >= 14), `each cross at least 14 px: ${JSON.stringify(fresh)}`);
  // The bounces' vermilion (#d55e00), not the queue's orange (#e69f00).
  const vermilion = ([r, g, b, a]) => a > 200 && r > 170 && g < 130 && b < 80;
  assert.ok(fresh.some((m) => vermilion(m.colour)), `a cross drawn in the bounces' colour at its centre: ${JSON.stringify(fresh)}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

// One size of cross: shrunk to 55% as it faded, a cross held beside one
// faded showed two sizes of bounce in chapter 2's picture at 500 clients,
// read as two kinds (reader 13). Each mark's cross, held and faded, is
// measured as drawn: the box of its vermilion pixels.
test("chapter 2's bounce crosses at 500 clients are one size, held or faded", async () => {
  const hash = 'demand=spike&clients=500&policy=random&speed=0.25&seed=1';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 900, height: 600 });
  const sides = await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let view;
    while (!(view = window.lbsim.views()[0]) || view.frameCosts().length === 0) await frame();
    const canvas = document.querySelector('.lbsim-embed canvas.topology');
    const scale = canvas.width / canvas.clientWidth;
    const context = canvas.getContext('2d');
    const vermilion = (d, i) => d[i + 3] > 160 && d[i] > 150 && d[i + 1] < 140 && d[i + 2] < 100;
    const sides = { held: [], faded: [] };
    for (const start = performance.now(); performance.now() - start < 20_000 && !(sides.held.length >= 3 && sides.faded.length >= 3); await frame()) {
      for (const { strength, rect: [x, y, w, h] } of JSON.parse(view.bounceMarks())) {
        if (strength > 0 && strength < 1) continue;
        const [left, top, width, height] = [x, y, w, h].map((v) => Math.round(v * scale));
        const { data } = context.getImageData(left, top, width, height);
        let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
        for (let i = 0; i < data.length; i += 4) {
          if (!vermilion(data, i)) continue;
          const [px, py] = [(i / 4) % width, Math.floor(i / 4 / width)];
          [x0, x1, y0, y1] = [Math.min(x0, px), Math.max(x1, px), Math.min(y0, py), Math.max(y1, py)];
        }
        if (x1 >= x0) sides[strength === 1 ? 'held' : 'faded'].push(Math.max(x1 - x0 + 1, y1 - y0 + 1) / scale);
      }
    }
    return sides;
  });
  assert.ok(sides.held.length >= 3 && sides.faded.length >= 3, `crosses held and faded measured: ${JSON.stringify(sides)}`);
  const all = [...sides.held, ...sides.faded];
  assert.ok(Math.max(...all) - Math.min(...all) <= 2, `every cross one size (CSS px), held ${sides.held.slice(0, 5)}, faded ${sides.faded.slice(0, 5)}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** WCAG 2 contrast between two [r, g, b] colours, from 1 (alike) to 21. */
const contrast = (a, b) => {
  const channel = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
};

for (const colorScheme of ['light', 'dark']) {
  test(`a bounce's cross, faded as far as it goes, stands 3:1 off the panel (${colorScheme})`, async () => {
    // Chapter 3's own settings, in an embed that follows the system's theme.
    const hash = 'policy=random&load=0.95&say=bounces';
    const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 900, height: 600, colorScheme });
    // The panel's colour, and over 12 s of wall time the strongest ink of
    // each faded mark (3 × 3 pixels round its cross's centre), as drawn.
    const { panel, faded } = await page.evaluate(async () => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      let view;
      while (!(view = window.lbsim.views()[0]) || view.frameCosts().length === 0) await frame();
      const root = document.querySelector('.lbsim-embed');
      const hex = getComputedStyle(root).getPropertyValue('--panel').trim().slice(1);
      const panel = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const canvas = root.querySelector('canvas.topology');
      const scale = canvas.width / canvas.clientWidth;
      // One sample of each mark at each quarter of its fading.
      const faded = new Map();
      for (const start = performance.now(); performance.now() - start < 12_000 && faded.size < 12; await frame()) {
        for (const { server, bounced, strength, rect: [x, y, w, h] } of JSON.parse(view.bounceMarks()).filter((m) => m.strength < 0.75)) {
          const key = `${server}:${bounced}:${Math.ceil(strength * 4)}`;
          if (faded.has(key)) continue;
          const [cx, cy] = [Math.round((x + w / 2) * scale), Math.round((y + h / 2) * scale)];
          const { data } = canvas.getContext('2d').getImageData(cx - 1, cy - 1, 3, 3);
          const pixels = [];
          // Over the panel (the plate under the mark is the panel's colour).
          for (let i = 0; i < data.length; i += 4) pixels.push([0, 1, 2].map((k) => Math.round(panel[k] + (data[i + k] - panel[k]) * data[i + 3] / 255)));
          faded.set(key, { server, strength, pixels });
        }
      }
      return { panel, faded: [...faded.values()] };
    });
    assert.ok(faded.some((m) => m.strength === 0), `a mark faded all the way within 12 s: ${JSON.stringify(faded.map((m) => m.strength))}`);
    for (const { server, strength, pixels } of faded) {
      const best = Math.max(...pixels.map((p) => contrast(p, panel)));
      assert.ok(best >= 3, `server ${server}'s cross at strength ${strength.toFixed(2)}: ${best.toFixed(2)}:1 off the panel ${panel} (${JSON.stringify(pixels)})`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// Chapter 6's queues are drawn to the slots' scale (a queued request as
// wide as a slot), chapter 5's as bars scaled to the longest queue of both
// pictures.
for (const [id, chapter, width, height] of [['stale', 6, 1440, 900], ['stale', 6, 390, 844], ['power-of-two', 5, 1440, 900]]) {
  test(`at ${width} × ${height} chapter ${chapter}'s two pictures draw equal queues equally long, on one row scale`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height, colorScheme: 'dark' });
    const view = await viewIndex(page, `sim-${id}`);
    await page.evaluate((id) => document.querySelector(`#sim-${id}`).scrollIntoView({ block: 'start' }), id);
    await page.locator(`#${id} .question .skip-guess`).waitFor();
    await skipQuestion(page, id);
    // Each frame for up to 15 s of wall time: every queue length both
    // pictures draw at once, with its length in pixels in each.
    const pairs = await page.evaluate(async (index) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const view = window.lbsim.views()[index];
      const pairs = [];
      for (const start = performance.now(); performance.now() - start < 15_000 && pairs.length < 20; await frame()) {
        const own = JSON.parse(view.servers()).map((s) => [s.queued, s.queue_px]);
        const twin = JSON.parse(view.twinQueues());
        for (const [queued, px] of own.filter(([q]) => q > 0)) {
          const beside = twin.find(([q]) => q === queued);
          if (beside) pairs.push({ queued, own: px, twin: beside[1] });
        }
      }
      return pairs;
    }, view);
    assert.ok(pairs.length >= 3, `queues of one length in both pictures at once: ${JSON.stringify(pairs)}`);
    for (const { queued, own, twin } of pairs) {
      assert.ok(Math.abs(own - twin) < 0.5, `a queue of ${queued}: ${own.toFixed(1)} px in power of two's picture, ${twin.toFixed(1)} px in random's`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// Chapter 6's random picture writes no copies: it left their column empty
// right of its rows, a blank as wide as power of two's "client 0 heard".
// Its rows now end where power of two's column does, at the same width
// and scale (the equal queues above), so both pictures end their ink at
// the same margin.
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} chapter 6's random picture leaves no empty column right of its rows`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height, colorScheme: 'dark' });
    const view = await viewIndex(page, 'sim-stale');
    await page.evaluate(() => document.querySelector('#sim-stale').scrollIntoView({ block: 'start' }));
    await page.locator('#stale .question .skip-guess').waitFor();
    await skipQuestion(page, 'stale');
    await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 2000, view, { timeout: 30_000 });
    // The blank (CSS px) right of the last ink over the rows, in each
    // picture, widest over a second of frames.
    const [own, twin] = await page.evaluate(async () => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const canvases = [...document.querySelector('#sim-stale').querySelectorAll('canvas.topology')];
      const blanks = canvases.map(() => 0);
      for (const start = performance.now(); performance.now() - start < 1000; await frame()) {
        canvases.forEach((canvas, k) => {
          const { width, height } = canvas;
          const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
          let right = 0;
          for (let y = Math.round(height * 0.12); y < Math.round(height * 0.95); y += 1) {
            for (let x = width - 1; x > right; x -= 1) {
              if (data[(y * width + x) * 4 + 3] > 0) { right = x; break; }
            }
          }
          blanks[k] = Math.max(blanks[k], (width - 1 - right) * canvas.clientWidth / width);
        });
      }
      return blanks;
    });
    assert.ok(twin - own < 20, `random's picture ends its ink ${twin.toFixed(0)} px short of its right edge, power of two's ${own.toFixed(0)} px`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test("at 390 × 844 chapter 6's server rows are at least 24 px tall in both pictures", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 390, height: 844, colorScheme: 'dark' });
  const view = await viewIndex(page, 'sim-stale');
  await page.evaluate(() => document.querySelector('#sim-stale').scrollIntoView({ block: 'start' }));
  await page.locator('#stale .question .skip-guess').waitFor();
  await skipQuestion(page, 'stale');
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 1000, view, { timeout: 30_000 });
  const rows = (await drawnServers(page, view)).map(({ cell: [, , , h] }) => h);
  assert.equal(rows.length, 10);
  assert.ok(rows.every((h) => h >= 24), `rows ${rows.map((h) => h.toFixed(1))} px tall`);
  const heights = await page.evaluate(() => [...document.querySelectorAll('#sim-stale canvas.topology')].map((c) => c.clientHeight));
  assert.equal(heights.length, 2);
  assert.equal(heights[0], heights[1], `the two pictures as tall: ${heights}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Chapter 3 asks the reader to click a server to slow it: the picture then
// shows which one. Its busy slots are hatched, so that, full, they show
// less of the busy colour than any full healthy row's; and the key lists
// the hatched slot. (Its word "¼ speed" is not asked: where the row's
// lane holds its queue and its bounce count it is left out.)
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} chapter 3's server slowed by a click stands out: its full slots hatched, the key listing them`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
    const view = await viewIndex(page, 'sim-continuous');
    await page.evaluate(() => document.getElementById('sim-continuous').scrollIntoView({ block: 'start', behavior: 'instant' }));
    await skipQuestion(page, 'continuous');
    const entry = page.locator('#sim-continuous .stage > .legend li').filter({ hasText: 'busy slot of a slowed server' });
    assert.equal(await entry.evaluate((li) => li.hidden), true, 'before the click the key lists no slowed server');
    await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 1500, view, { timeout: 60_000 });
    const canvas = await page.locator('#sim-continuous-topology').boundingBox();
    const [x, y, w, h] = (await drawnServers(page, view))[3].cell;
    await page.mouse.click(canvas.x + x + w * 0.75, canvas.y + y + h / 2);
    await page.waitForFunction((i) => window.lbsim.views()[i].serverSpeeds()[3] === 0.25, view, { timeout: 5_000 });
    // Paused once the slowed server and some other are full, so that the
    // pixels read are those of the rows the hook reports. The run goes on
    // for a frame or two between the check and the pause, which can empty
    // a slot (one run of several paused at 9 of 10): played on and paused
    // again until the rows paused on are full.
    const full = (busy) => busy[3] === 10 && busy.some((b, s) => s !== 3 && b === 10);
    let servers;
    for (let tries = 0; tries < 10; tries += 1) {
      await page.waitForFunction((i) => {
        const busy = JSON.parse(window.lbsim.views()[i].servers()).map((s) => s.busy);
        return busy[3] === 10 && busy.some((b, s) => s !== 3 && b === 10);
      }, view, { timeout: 30_000 });
      await page.locator('#sim-continuous button.play').click();
      await page.waitForTimeout(200);
      servers = await drawnServers(page, view);
      if (full(servers.map((s) => s.busy))) break;
      await page.locator('#sim-continuous button.play').click();
    }
    const busy = await page.evaluate(() => getComputedStyle(document.getElementById('sim-continuous')).getPropertyValue('--c-busy').trim());
    const rgb = [1, 3, 5].map((i) => parseInt(busy.slice(i, i + 2), 16));
    // Each row's slots: from the first to the last pixel of the busy
    // colour along the row's middle, over its middle third.
    const shares = await page.evaluate(([cells, rgb]) => {
      const canvas = document.getElementById('sim-continuous-topology');
      const scale = canvas.width / canvas.clientWidth;
      const context = canvas.getContext('2d');
      const like = (data, i) => Math.hypot(data[i] - rgb[0], data[i + 1] - rgb[1], data[i + 2] - rgb[2]) < 60;
      return cells.map(([cx, cy, cw, ch]) => {
        const [left, top, width, height] = [cx, cy + ch / 3, cw, ch / 3].map((v) => Math.round(v * scale));
        const { data } = context.getImageData(left, top, width, height);
        const middle = Math.floor(height / 2) * width * 4;
        let [first, last] = [-1, -1];
        for (let col = 0; col < width; col += 1) {
          if (like(data, middle + col * 4)) [first, last] = [first < 0 ? col : first, col];
        }
        if (first < 0) return 0;
        let [inked, all] = [0, 0];
        for (let row = 0; row < height; row += 1) {
          for (let col = first; col <= last; col += 1) {
            inked += like(data, (row * width + col) * 4);
            all += 1;
          }
        }
        return inked / all;
      });
    }, [servers.map((s) => s.cell), rgb]);
    await page.locator('#sim-continuous .topology').screenshot({ path: artifact(`pictures-slowed-by-click-continuous-${width}.png`) });
    const healthy = shares.filter((_, s) => s !== 3 && servers[s].busy === 10);
    assert.ok(healthy.length > 0 && servers[3].busy === 10, `the slowed server and another full: ${servers.map((s) => s.busy)}`);
    // Half a full healthy row's at least: cells as wide as a queued
    // request's are smaller than a row's middle third (6 px at 1440 × 900).
    assert.ok(shares[3] > 0.5 * Math.min(...healthy), `the slowed row's slots are drawn in the busy colour: ${shares.map((v) => v.toFixed(2))}`);
    assert.ok(shares[3] <= 0.9 * Math.min(...healthy), `hatched, the slowed row's full slots show less of the busy colour than every full healthy row's: ${shares.map((v) => v.toFixed(2))}`);
    assert.equal(await entry.evaluate((li) => li.hidden), false, 'the key lists the busy slot of a slowed server');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// Chapter 3's surprise, the slowed server's queue the shortest while it
// bounces the most, was seen in the picture but not why (reader 12): at a
// quarter of its speed its queue takes four times as long to clear. Once a
// server is slowed the picture draws each queue's wait as a line under it
// (lbsim::ui::waits), red past the timeout's tick: on the slowed row, not on
// rows at full speed, whose longer queues clear in time; the key says so.
// Reader 13 found the 3 px line thin and did not read it without the text:
// past the tick it is drawn 7.2 px thick (at least 5 lines of red) and striped (a shape, not
// only a colour), the timeout named once under the rows, clear of every
// label; on a phone too, whose 26 px rows held no line.
// On a phone the rows hold the line too, and its scale is the row, not the
// queue's lane (about 45 px there, where at 18 queued the part past the
// tick was 3 to 4 px long): past the tick it is at least 20 px long.
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} chapter 3's slowed queue draws its wait past the timeout thick, long, red and striped, the timeout named, the key saying so`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height, initScript: recordLabels });
    const view = await viewIndex(page, 'sim-continuous');
    await page.evaluate(() => document.querySelector('#sim-continuous').scrollIntoView({ block: 'center' }));
    await skipQuestion(page, 'continuous');
    const entry = page.locator('#sim-continuous .stage > .legend li').filter({ hasText: "a queue's wait at its server's speed" });
    assert.equal(await entry.evaluate((li) => li.hidden), true, 'before the click no wait is drawn');
    await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 11_000, view, { timeout: 60_000 });
    const canvas = await page.locator('#sim-continuous-topology').boundingBox();
    const [x, y, w, h] = (await drawnServers(page, view))[4].cell;
    await page.mouse.click(canvas.x + x + w * 0.75, canvas.y + y + h / 2);
    await page.waitForFunction((i) => window.lbsim.views()[i].serverSpeeds()[4] === 0.25, view, { timeout: 5_000 });
    const slowedAt = await page.evaluate((i) => window.lbsim.views()[i].simTime(), view);
    await page.waitForFunction(([i, t]) => window.lbsim.views()[i].simTime() > t + 5000, [view, slowedAt], { timeout: 60_000 });
    // Paused while the slowed queue waits well past the timeout, 144 ms
    // or more: its queue over the last two seconds (which its line reads)
    // 18 or more, the prose's figure, half as many again as the 12 its
    // server takes in 100 ms (ten slots, 20 ms a request, at a quarter of
    // its speed); at 130 ms a phone's part past the tick was 19 px.
    const waitsLong = (row) => parseFloat(row.wait ?? '0') >= 144;
    let servers;
    for (let tries = 0; tries < 10; tries += 1) {
      await page.waitForFunction(([i, test]) => new Function(`return (${test})`)()(JSON.parse(window.lbsim.views()[i].servers())[4]), [view, waitsLong.toString()], { timeout: 30_000 });
      await page.locator('#sim-continuous button.play').click();
      await page.waitForTimeout(200);
      servers = await drawnServers(page, view);
      if (waitsLong(servers[4])) break;
      await page.locator('#sim-continuous button.play').click();
    }
    const bounce = await page.evaluate(() => getComputedStyle(document.getElementById('sim-continuous')).getPropertyValue('--c-bounce').trim());
    const rgb = [1, 3, 5].map((i) => parseInt(bounce.slice(i, i + 2), 16));
    const red = `([r, g, b]) => Math.hypot(r - ${rgb[0]}, g - ${rgb[1]}, b - ${rgb[2]}) < 40`;
    // Pixels of the bounces' colour in each row's lower half, under its
    // row up to its box's right edge: right of it the wait is written,
    // past the timeout in red as well.
    const underRow = ({ cell: [cx, cy, , ch], slots_box: [bx, , bw] }) => [cx, cy + ch / 2, bx + bw - cx, ch / 2];
    const late = await inBoxes(page, 'sim-continuous-topology', servers.map(underRow), `(pixels) => pixels.filter(${red}).length`);
    // The slowed row's lower half, line by line: how many lines hold a
    // run of red, on the reddest, how many runs the stripes part it in,
    // and how far it reaches, from its first red pixel to its last.
    const [cx, cy, cw, ch] = underRow(servers[4]);
    const lines = await inBoxes(page, 'sim-continuous-topology', Array.from({ length: Math.floor(ch) }, (_, k) => [cx, cy + k, cw, 1]),
      `(pixels) => { const isRed = ${red}; let runs = 0, count = 0, before = false, first = -1, last = -1;
        pixels.forEach((p, x) => { const now = isRed(p); if (now) { count += 1; last = x; if (first < 0) first = x; } if (now && !before) runs += 1; before = now; });
        return [count, runs, last - first + 1]; }`);
    const thick = lines.filter(([count]) => count >= 5).length;
    const stripes = Math.max(0, ...lines.filter(([count]) => count >= 5).map(([, runs]) => runs));
    const reach = Math.max(0, ...lines.map(([, , extent]) => extent));
    await page.locator('#sim-continuous .topology').screenshot({ path: artifact(`pictures-past-the-timeout-continuous-${width}x${height}.png`) });
    const others = late.filter((_, s) => s !== 4).sort((a, b) => a - b);
    const queued = servers.map((s) => s.queued);
    assert.ok(late[4] >= 20, `the slowed row (${queued[4]} queued) draws its wait past the timeout: ${late} px by row, queues ${queued}`);
    assert.ok(late[4] > 2 * others[4], `more than twice the median full-speed row's: ${late} px by row, queues ${queued}`);
    assert.ok(thick >= 5, `the part past the tick is at least 5 px thick (3 before reader 13): ${thick} lines of red (${JSON.stringify(lines)})`);
    assert.ok(stripes >= 3, `and striped: the reddest line in ${stripes} runs`);
    assert.ok(reach >= 20, `and long: past the tick it reaches ${reach} px (3 to 4 px on a phone, to the lane's scale)`);
    // The timeout, named once, under the rows, clear of every other label
    // (a row's own wait may read "100 ms" too: one did in a full run).
    const labels = await page.evaluate(() => document.getElementById('sim-continuous-topology').labels);
    const rowsSaying = servers.filter((s) => s.wait === '100 ms').length;
    const written = labels.filter((l) => l.text === '100 ms').sort((a, b) => a.box[1] - b.box[1]);
    assert.equal(written.length, 1 + rowsSaying, `"100 ms" written once, and by ${rowsSaying} rows: ${JSON.stringify(labels.map((l) => l.text))}`);
    const named = written.slice(-1);
    const [left, top, right, bottom] = named[0].box;
    const overlapping = labels.filter((l) => l !== named[0] && l.box[0] < right && left < l.box[2] && l.box[1] < bottom && top < l.box[3]);
    assert.deepEqual(overlapping, [], 'the timeout\'s name overprints no label');
    const last = servers[servers.length - 1].cell;
    const pictureHeight = await page.evaluate(() => document.getElementById('sim-continuous-topology').clientHeight);
    assert.ok(top >= last[1] + last[3] / 2 && bottom <= pictureHeight, `under the last row's middle, inside the picture: ${named[0].box} (row ${last}, picture ${pictureHeight} px)`);
    assert.equal(await entry.evaluate((li) => li.hidden), false, 'the key lists the wait');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// At a thousand clients chapter 6's client cells are 3 px: the followed
// client, ringed 9 px across, could not be found among hundreds (reader
// 16). A client cell that small is ringed by a circle 22 px across, in
// ink on a halo of the panel's colour: ink all round it.
test("at 1440 × 900 and a thousand clients chapter 6's followed client is ringed large enough to find", async () => {
  const { page, errors, view } = await openChapter('stale');
  await slideTo(page, page.locator('#sim-stale-clients'), '1,000', 'ArrowRight');
  await page.evaluate((i) => window.lbsim.views()[i].follow(10), view);
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 3000, view, { timeout: 30_000 });
  await page.locator('#stale button.play').click();
  await page.waitForTimeout(300);
  const cell = JSON.parse(await page.evaluate((i) => window.lbsim.views()[i].clients(), view))[10];
  assert.ok(cell[2] < 10, `a thousand clients' cells are small: ${cell}`);
  const [cx, cy] = [cell[0] + cell[2] / 2, cell[1] + cell[3] / 2];
  // Eight points on a circle 11 px round the cell's centre, 1 px boxes:
  // the 9 px square ring reached 6 px from it at most.
  const points = [...Array(8).keys()].map((k) => [cx + 11 * Math.cos((k * Math.PI) / 4) - 1, cy + 11 * Math.sin((k * Math.PI) / 4) - 1, 2, 2]);
  const darkest = await darkestIn(page, 'sim-stale-topology', points);
  assert.ok(darkest.every((l) => l < 90), `ink round the followed client at 11 px (least luma of each point): ${darkest.map(Math.round)}`);
  await page.locator('#sim-stale-topology').screenshot({ path: artifact('pictures-stale-followed-1000.png') });
  assert.deepEqual(errors, []);
  await page.context().close();
});
