// Small details that must not mislead (issue 39, items 6, 7 and 9): the
// percentile chart's time axis grows with the run; a decision's badges say
// what its chooser saw and stay as long as its lines; a queue's
// drawn length follows its length, and the number beside it is it; a
// poster names its caption
// once and draws its charts at its own resolution; Copy embed code sits
// at the top of the lab's settings and lists only what differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, openApp, server, skipQuestion, useBrowser } from './lib.mjs';

useBrowser();

const view = (page, call) => page.evaluate((call) => {
  const value = window.lbsim.views()[0][call]();
  return value == null ? null : JSON.parse(value);
}, call);

/** The rightmost column (as a share of the width) with ink in the middle
 * band of the canvas `id` (clear of the axis titles and ticks). */
const rightmostInk = (page, id) => page.evaluate((id) => {
  const canvas = document.getElementById(id);
  const { width, height } = canvas;
  const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
  const background = data.slice(0, 4).join();
  let right = 0;
  for (let y = Math.round(height * 0.1); y < Math.round(height * 0.75); y += 1) {
    for (let x = right + 1; x < width; x += 1) {
      const i = (y * width + x) * 4;
      if (data.slice(i, i + 4).join() !== background) right = x;
    }
  }
  return right / width;
}, id);

test("the percentile chart's time axis spans the run so far, so three seconds in the curves cross the chart", async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'load=0.9&seed=3' });
  await page.waitForFunction(() => window.lbsim.simTime() > 3000, null, { timeout: 20_000 });
  await page.click('#play');
  await page.waitForTimeout(400);
  const right = await rightmostInk(page, 'chart-percentiles');
  assert.ok(right > 0.7, `at ${await page.evaluate(() => window.lbsim.simTime())} ms the lines end at ${right} of the chart`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("a decision's ring is drawn only beside rows that agree with it", async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=power-of-d&load=0.95&seed=4' });
  await page.waitForFunction(() => window.lbsim.simTime() > 3000, null, { timeout: 20_000 });
  await page.click('#play');
  // Paused, each step: a ring round the taken server beside a row that has
  // since moved on read as the decision (one with 3 queued "taken" over
  // one at 7/10); it is drawn only while the rows agree. A Step runs on to
  // the next decision, whose rows agree; Shift+Step goes one event on, after
  // which they often have moved. Where the pause lands is the wall clock's,
  // so the two cases' shares vary: 60 steps once met only 4 moved on.
  let [agreeing, moved] = [0, 0];
  for (let i = 0; i < 90; i += 1) {
    await page.click('#step', { modifiers: i % 3 === 0 ? [] : ['Shift'] });
    await page.waitForTimeout(30);
    const shown = await view(page, 'decision');
    if (!shown) continue;
    const servers = await view(page, 'servers');
    const { decision, ringInk } = shown;
    const same = decision.candidates.every((c) => c.load === servers[c.server].busy + servers[c.server].queued);
    assert.equal(ringInk, same ? 1 : 0, `rows ${same ? 'agree' : 'moved on'}: ring drawn at ${ringInk}`);
    if (same) agreeing += 1; else moved += 1;
  }
  // Both cases met: rings drawn, and decisions told in words only.
  assert.ok(agreeing >= 5 && moved >= 5, `${agreeing} decisions shown beside rows that agree, ${moved} in words only`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/**
 * A badge's wordings, longest first, for a load `seen` on a row of ten
 * slots, as the row writes it: its slots in use ("8/10"; full, also "full") or its queue
 * ("3 queued", "3"). "saw 13", busy plus queued, matched no figure drawn.
 */
function rowTerms(verb, seen) {
  if (seen < 10) return [`${verb} ${seen}/10`, `${seen}/10`];
  if (seen === 10) return [`${verb} 10/10`, '10/10', 'full'];
  return [`${verb} ${seen - 10} queued`, `${seen - 10} queued`, `${seen - 10}`];
}

test("paused, a decision's badges say what the chooser saw", async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=power-of-d&load=0.95&seed=4' });
  await page.waitForFunction(() => window.lbsim.simTime() > 3000, null, { timeout: 20_000 });
  await page.click('#play');
  // Paused, each step's picture: a decision's lines and badges show while
  // its candidates' rows are as it met them (the ring's test above), and
  // its badges say what the chooser saw.
  let shown = 0;
  for (let i = 0; i < 150 && shown < 3; i += 1) {
    await page.click('#step');
    await page.waitForTimeout(30);
    const decision = await view(page, 'decision');
    if (!decision || decision.ringInk === 0) continue;
    assert.deepEqual(decision.badges, decision.decision.candidates.map((c) => [c.server, rowTerms('saw', c.seen)]), 'each badge is what the chooser saw, as its row writes it');
    shown += 1;
  }
  assert.ok(shown >= 3, `${shown} decisions drawn beside their rows`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** Records each frame's texts on a canvas, with the alpha each is written at. */
function recordTexts() {
  const { fillText, clearRect } = CanvasRenderingContext2D.prototype;
  CanvasRenderingContext2D.prototype.clearRect = function (x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) this.canvas.texts = [];
    return clearRect.call(this, x, y, w, h);
  };
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    (this.canvas.texts ??= []).push({ text: String(text), alpha: this.globalAlpha });
    return fillText.call(this, text, ...rest);
  };
}

/**
 * Opens `url` in a page whose canvases record their texts (see
 * `recordTexts`), with the page's errors collected.
 */
async function openRecording(url, { width = 1440, height = 900 } = {}) {
  const { page, errors } = await openApp(browser, url, { width, height, initScript: recordTexts });
  return { context: page.context(), page, errors };
}

// Running, a decision's lines are held for a while whatever the rows do
// since; a solid ring round a server that had since become the busier of
// the two read as "power of two picked the worse one" (reader 10 on a
// phone: it "took server 3 with 2 queued over server 5 with 0 queued and
// a free slot"). Each frame that draws the lines draws the badges with
// them, as strongly, in the row's terms; beside rows that have moved on
// it is drawn as past: at half strength at most, no ring round the
// winner, and badges that say what the chooser saw then ("saw 9/10 then",
// never a bare "9/10" the rows no longer write: an outlined "saw 9/10"
// still read as the row's present, reader 16), their text at 0.8 at
// least ("then 9/10" at half strength was too faint and small to read
// over the requests: reader 11; with no badge at all, a running chapter 5
// drew 8 in 298 frames: reader 12).
test("running, a decision held past its rows is drawn as past: faint, unringed, its badges saying what the chooser saw", async () => {
  const { context, page, errors } = await openRecording(`${server.url}#policy=power-of-d&load=0.9&seed=4`);
  await page.waitForFunction(() => window.lbsim?.simTime() > 1000, null, { timeout: 30_000 });
  const frames = await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const view = window.lbsim.views()[0];
    const canvas = document.querySelector('canvas.topology');
    const frames = [];
    for (const start = performance.now(); performance.now() - start < 4000; await frame()) {
      const shown = JSON.parse(view.decision() ?? 'null');
      if (!shown || shown.ringInk === 0) continue;
      const servers = JSON.parse(view.servers());
      const moved = shown.decision.candidates.some((c) => servers[c.server].busy + servers[c.server].queued !== c.load);
      // Past, any of its wordings (each ends "then", which no row writes);
      // else its longest, as a row may write "10/10" itself.
      const badge = (wordings) => (moved ? wordings : wordings.slice(0, 1));
      const written = shown.badges.map(([, wordings]) => (canvas.texts ?? []).find((t) => badge(wordings).includes(t.text)) ?? null);
      frames.push({ moved, ink: shown.ringInk, ring: shown.winnerRing, badges: shown.badges, seen: shown.decision.candidates.map((c) => c.seen), written });
    }
    return frames;
  });
  const moved = frames.filter((f) => f.moved);
  assert.ok(moved.length >= 20, `${frames.length} frames drew a decision's lines, ${moved.length} beside rows that had moved on`);
  for (const { moved, ink, ring, badges, seen, written } of frames) {
    // Slots just full, also "full then"; a queue, last its bare figure
    // ("2 then"), as a row does not write "then".
    const shortest = (s) => (s === 10 ? ['full then'] : s > 10 ? [`${s - 10} then`] : []);
    const past = (s) => [`saw ${rowTerms('saw', s)[1]} then`, `${rowTerms('saw', s)[1]} then`, ...shortest(s)];
    const said = seen.map((s) => (moved ? past(s) : rowTerms('saw', s)));
    assert.deepEqual(badges.map(([, wordings]) => wordings), said, moved ? 'beside rows that moved on, only what the chooser saw' : 'a badge says what the chooser sees, as the row writes it');
    if (moved) {
      assert.ok(ink <= 0.5, `beside rows that moved on, drawn at ${ink}`);
      assert.equal(ring, null, 'no ring round a row that has moved on');
    } else {
      assert.ok(ring !== null, 'ringed beside rows as it met them');
    }
    for (const [k, text] of written.entries()) {
      const alpha = moved ? Math.max(ink, 0.8) : ink;
      assert.ok(text && Math.abs(text.alpha - alpha) < 1e-6, `lines at ${ink}, badge "${badges[k][1].join('" or "')}" ${text ? `at ${text.alpha}` : 'not drawn'}`);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// At ten choices ten badges stood on one another beside the rows: only
// the taken server's is drawn, saying of how many it was the least.
// Running, rows move on within a frame or two and a decision past its
// rows says only what it saw (the case above): stepped while paused, each
// decision is drawn beside its rows as it met them.
test('at ten choices only the taken server has a badge, which says of how many it was the least', async () => {
  const { context, page, errors } = await openRecording(`${server.url}#policy=power-of-d&choices=10&load=0.9&seed=4`);
  await page.waitForFunction(() => window.lbsim?.simTime() > 1000, null, { timeout: 30_000 });
  await page.click('#play');
  let shown = 0;
  for (let i = 0; i < 150 && shown < 3; i += 1) {
    await page.click('#step');
    await page.waitForTimeout(30);
    const frame = await page.evaluate(() => {
      const shown = JSON.parse(window.lbsim.views()[0].decision() ?? 'null');
      // A badge's words (a bare "1" is also a queue's length).
      const written = (document.querySelector('canvas.topology').texts ?? []).map((t) => t.text).filter((t) => /^(saw|then) /.test(t));
      return shown && shown.ringInk > 0 ? { candidates: shown.decision.candidates.length, winner: shown.decision.winner, badges: shown.badges, written } : null;
    });
    if (!frame) continue;
    const { candidates, winner, badges, written } = frame;
    assert.equal(candidates, 10);
    assert.deepEqual(badges.map(([server]) => server), [winner], 'one badge, the taken server\'s');
    assert.match(badges[0][1][0], /, least of 10$/);
    assert.equal(written.length, 1, `one badge written: ${JSON.stringify(written)}`);
    shown += 1;
  }
  assert.ok(shown >= 3, `${shown} decisions drawn beside their rows`);
  assert.deepEqual(errors, []);
  await context.close();
});

// Where the picture writes one client's copies of the loads (chapter 6),
// the decision drawn is that client's, so that what its badges say it saw
// is what the column says it heard: another client's "saw 15" stood beside
// client 5's copies 13 and 8. The legend says what a copy counts and which
// side of the row's end a needle falls for "thinks busier", and explains
// "stale" as the desktop picture writes it.
test("learning load, the decision drawn is the copies' client's, and the legend reads the copies and their needles", async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=p2c-piggyback&load=0.9&seed=4' });
  await page.waitForFunction(() => window.lbsim.simTime() > 1000, null, { timeout: 30_000 });
  const choosers = await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const view = window.lbsim.views()[0];
    const choosers = new Set();
    for (const start = performance.now(); performance.now() - start < 3000; await frame()) {
      const shown = JSON.parse(view.decision() ?? 'null');
      if (shown && shown.ringInk > 0) choosers.add(shown.decision.chooser);
    }
    return [...choosers];
  });
  assert.deepEqual(choosers, [0], 'only client 0, whose copies the column writes, is drawn deciding');
  const legend = await page.evaluate(() => [...document.querySelectorAll('.stage .legend li')].filter((li) => !li.hidden).map((li) => li.textContent));
  const entry = (text) => legend.find((l) => l.includes(text)) ?? '';
  assert.match(entry('copy of a server'), /busy plus queued/);
  assert.match(entry('copy of a server'), /left of the row's end, the client thinks the server busier/);
  assert.match(entry('a choice'), /"stale"/);
  assert.match(entry('queued'), /"<": longer than its lane shows/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

// A key's placement compares nothing: chapter 13's modulo sends each key
// to its one server whatever its load, where the picture wrote "saw 14"
// beside that server and the legend spoke of servers compared and what
// the chooser saw. Running, each frame that draws a placement's line and
// ring writes no badge, and the legend's entry calls it a key's placement.
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} chapter 13's placements are drawn with no "saw" badge and listed as placements`, async () => {
    const { context, page, errors } = await openRecording(`${server.url}explain.html`, { width, height });
    await page.waitForFunction(() => window.lbsim !== undefined, null, { timeout: 30_000 });
    await page.evaluate(() => document.getElementById('sim-keys').scrollIntoView({ block: 'start', behavior: 'instant' }));
    await skipQuestion(page, 'keys');
    const seen = await page.evaluate(async () => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const index = [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-keys');
      while (window.lbsim.views()[index].simTime() < 1500) await frame();
      const view = window.lbsim.views()[index];
      const canvas = document.getElementById('sim-keys-topology');
      const seen = { frames: 0, measures: [], badges: [], saw: [] };
      for (const start = performance.now(); performance.now() - start < 4000; await frame()) {
        const shown = JSON.parse(view.decision() ?? 'null');
        if (!shown || shown.ringInk === 0) continue;
        seen.frames += 1;
        seen.measures.push(shown.decision.measure);
        seen.badges.push(...shown.badges);
        seen.saw.push(...(canvas.texts ?? []).map((t) => t.text).filter((text) => text.startsWith('saw')));
      }
      seen.legend = [...document.querySelectorAll('#sim-keys .legend li')].map((li) => li.textContent);
      // Modulo draws one solid line: its swatch too (it was the
      // comparison's dashed one).
      const chip = [...document.querySelectorAll('#sim-keys .legend li')].find((li) => li.textContent.includes('placement'))?.querySelector('.chip');
      seen.swatch = chip ? getComputedStyle(chip).backgroundImage : 'no chip';
      return seen;
    });
    assert.ok(seen.frames >= 30, `${seen.frames} frames drew a placement`);
    assert.deepEqual([...new Set(seen.measures)], ['key']);
    assert.deepEqual(seen.badges.slice(0, 3), [], 'a placement has no badge');
    assert.deepEqual(seen.saw.slice(0, 3), [], 'no "saw" written');
    const entry = seen.legend.find((text) => text.includes('placement'));
    assert.ok(entry && !entry.includes('compared') && !entry.includes('saw'), `the legend: ${JSON.stringify(seen.legend)}`);
    assert.equal(seen.swatch, 'none', 'the placement\'s swatch is a solid line, as modulo draws it');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("queues are drawn as long as they are, a queue of 12 distinct from one of 6, each with its length beside it", async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=random&load=1.4&seed=5' });
  await page.waitForFunction(() => {
    const servers = JSON.parse(window.lbsim.views()[0].servers());
    return Math.max(...servers.map((s) => s.queued)) >= 12;
  }, null, { timeout: 30_000 });
  await page.click('#play');
  const servers = await view(page, 'servers');
  const queued = servers.filter((s) => s.queued > 0).sort((a, b) => a.queued - b.queued);
  // A cell a request, to the lane's start (src/ui/row_scale.rs), where a
  // longer queue is cut with a mark, its count written beside it: queues
  // both past it are drawn alike, to the lane's start.
  const cut = Math.max(...queued.map((s) => s.queue_px));
  for (let i = 1; i < queued.length; i += 1) {
    const [shorter, longer] = [queued[i - 1], queued[i]];
    if (longer.queued > shorter.queued && shorter.queue_px < cut) {
      assert.ok(longer.queue_px > shorter.queue_px, `${longer.queued} drawn ${longer.queue_px} px, ${shorter.queued} ${shorter.queue_px} px`);
    }
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Chapter 5 is about the pile-ups random leaves: short queues must look as
// different as they are. Scaled as bars to a longest of 20 in a lane of two
// cells, queues of 1, 2 and 3 were all drawn as one cell. Each frame, in
// both pictures, every two queues of 1 to 3 differ by at least a cell's
// worth in length, and each is written beside itself.
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} chapter 5 draws queues of 1, 2 and 3 a cell a request beside long ones, each with its length written`, async () => {
    const { context, page, errors } = await openRecording(`${server.url}explain.html`, { width, height });
    await page.waitForFunction(() => window.lbsim !== undefined, null, { timeout: 30_000 });
    const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-power-of-two'));
    await page.evaluate(() => document.querySelector('#sim-power-of-two').scrollIntoView({ block: 'start' }));
    await page.locator('#power-of-two .question .skip-guess').waitFor();
    await skipQuestion(page, 'power-of-two');
    const seen = await page.evaluate(async (index) => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const view = window.lbsim.views()[index];
      const [own, twin] = [...document.querySelector('#sim-power-of-two').querySelectorAll('canvas.topology')];
      const seen = { frames: 0, pairs: [], unwritten: [] };
      for (const start = performance.now(); performance.now() - start < 10_000; await frame()) {
        const pictures = [
          [JSON.parse(view.servers()).map((s) => [s.queued, s.queue_px]), own],
          [JSON.parse(view.twinQueues() ?? '[]'), twin],
        ];
        const longest = Math.max(...pictures.flatMap(([queues]) => queues.map(([q]) => q)));
        if (longest < 10) continue;
        seen.frames += 1;
        for (const [queues, canvas] of pictures) {
          // Each length written once a queue, besides a row's name ("3").
          const texts = (canvas?.texts ?? []).map((t) => t.text);
          const written = (q) => texts.filter((t) => t === String(q)).length - (q < queues.length ? 1 : 0);
          const queuesOf = (q) => queues.filter(([r]) => r === q).length;
          for (const [q] of queues.filter(([q]) => q > 0 && written(q) < queuesOf(q))) seen.unwritten.push(q);
          const short = queues.filter(([q]) => q >= 1 && q <= 3);
          for (const [a, pa] of short) {
            for (const [b, pb] of short.filter(([b]) => b > a)) seen.pairs.push({ a, b, pa, pb, longest });
          }
        }
      }
      return seen;
    }, index);
    assert.ok(seen.frames >= 20 && seen.pairs.length >= 20, `${seen.frames} frames with a queue of 10 or more, ${seen.pairs.length} pairs of short queues`);
    // A cell a request, 3 px at the finest (LEAST_QUEUE_PITCH in
    // src/ui/marks/queue_pitch.rs): a queue of the run longer than its lane
    // (random's reach 23 at 1440 × 900, on a lane of 22 cells of 6 px)
    // draws every row's queue on one finer pitch, so that long queues too
    // are drawn as far apart as they are.
    const cell = 3;
    for (const { a, b, pa, pb, longest } of seen.pairs) {
      assert.ok(pb - pa >= cell * (b - a) - 0.01, `beside a queue of ${longest}, ${a} drawn ${pa.toFixed(1)} px and ${b} ${pb.toFixed(1)} px`);
    }
    assert.deepEqual(seen.unwritten, [], 'queue lengths not written beside their queues');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test("a poster names its caption once and draws each chart at the poster's own resolution", async () => {
  const context = await browser.newContext({ viewport: { width: 680, height: 400 }, deviceScaleFactor: 1, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(server.url + 'embed.html#policy=power-of-d&caption=Power%20of%20two&charts=percentiles&seed=7');
  await page.waitForFunction(() => window.lbsim?.simTime() > 2000, null, { timeout: 30_000 });
  await page.click('#more-toggle');
  await Promise.all([page.waitForEvent('download'), page.click('#download-poster')]);
  const poster = await view(page, 'poster');
  assert.equal(poster.title, 'Power of two');
  assert.ok(!poster.lines.join(' ').includes('Power of two'), `the caption once: ${JSON.stringify(poster.lines)}`);
  assert.equal(poster.pictures.length, 2, 'the picture and the chart');
  const [, [[, , w, h], [cw, ch]]] = poster.pictures;
  assert.deepEqual([cw, ch], [Math.round(w), Math.round(h)], 'the chart drawn at its box on the poster');
  await context.close();
});

test("Copy embed code is at the top of the lab's settings and copies only what differs from the defaults", async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=ring&servers=12', width: 1440, height: 900 });
  const [button, panel] = await page.evaluate(() => [
    document.getElementById('copy-embed').getBoundingClientRect().top,
    document.getElementById('copy-embed').closest('.panel, aside, form, [class*=settings]').getBoundingClientRect().top,
  ]);
  assert.ok(button - panel < 900, `the button ${button - panel} px below the top of the settings`);
  await page.locator('#copy-embed').scrollIntoViewIfNeeded();
  const box = await page.locator('#copy-embed').boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const snippet = await page.inputValue('#embed-code');
  const src = snippet.match(/src="[^"#]*#([^"]*)"/)[1].replaceAll('&amp;', '&');
  const keys = src.split('&').map((entry) => entry.split('=')[0]);
  assert.ok(keys.includes('servers') && keys.includes('policy'), src);
  assert.ok(!keys.includes('slots') && !keys.includes('load') && keys.length <= 6, `only what differs: ${src}`);
  assert.ok(snippet.length < 400, `${snippet.length} characters`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 17's picture writes each server's share of the answers at its row, as its sentence counts them", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900, colorScheme: 'dark' });
  await page.evaluate(() => document.querySelector('#sim-black-hole').scrollIntoView({ block: 'center' }));
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-black-hole'));
  await page.waitForFunction((i) => (window.lbsim.views()[i].readback() ?? '').includes('drew'), index, { timeout: 30_000 });
  await page.waitForTimeout(300);
  // Ink at each row's entrance, where the lane's line alone crossed it
  // (server 0, failing fast, looked the quietest row of all).
  const inks = await page.evaluate((i) => {
    const servers = JSON.parse(window.lbsim.views()[i].servers());
    const canvas = document.querySelector('#sim-black-hole canvas[id$="topology"]');
    const context = canvas.getContext('2d');
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const panel = context.getImageData(2, canvas.height - 3, 1, 1).data;
    return servers.map(({ cell: [x, y, , h] }) => {
      const [left, top] = [Math.round((x + 4) * scale), Math.round((y + h / 2 - 5) * scale)];
      const { data } = context.getImageData(left, top, Math.round(40 * scale), Math.round(11 * scale));
      let ink = 0;
      for (let p = 0; p < data.length; p += 4) {
        if (Math.abs(data[p] - panel[0]) + Math.abs(data[p + 1] - panel[1]) + Math.abs(data[p + 2] - panel[2]) > 90) ink += 1;
      }
      return ink;
    });
  }, index);
  // The lane's line alone inks 80 pixels of the 440 (chapter 5's rows);
  // a share written there, about 390.
  assert.ok(inks.every((ink) => ink > 200), `ink at each row's entrance: ${inks}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a control moved after a spike is over plays the spike again with the new setting', async () => {
  const hash = 'demand=spike&clients=60&speed=4&controls=clients&charts=clients';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 800, height: 600 });
  await page.waitForFunction(() => document.querySelector('.play').textContent === 'Replay', null, { timeout: 30_000 });
  const over = await page.evaluate(() => window.lbsim.simTime());
  // The spike's run lasts under half a simulated second: at speed 4 a
  // replay is over in about a tenth of a second, between two polls on a
  // loaded machine. Every frame's time is noted from before the press.
  await page.evaluate(() => {
    window.frameTimes = [];
    const note = () => {
      window.frameTimes.push(window.lbsim.simTime());
      requestAnimationFrame(note);
    };
    requestAnimationFrame(note);
  });
  const slider = page.locator('input[type=range]').first();
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  // Started over from the seed, and running, not paused at 0: a frame
  // drew the new run before the spike's end, and a later one further on
  // (a frame on a loaded machine may step over any narrower window).
  await page.waitForFunction((over) => {
    const start = window.frameTimes.findIndex((t) => t < over);
    return start >= 0 && window.frameTimes.slice(start).some((t) => t > window.frameTimes[start]);
  }, over, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});
