// Cause and effect on one screen: at 1280 × 720 and 1920 × 1080 the policy
// control, the play button, the topology and the queue-time chart all lie
// inside the window without scrolling; on a 360 × 780 phone the picture
// starts within the first screen. No text is cut off sideways. The lab is
// usable as a reader meets it: every control takes a click at its centre,
// no text overprints, nothing leaves the view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, screenshot, artifact } from './lib.mjs';
import { layoutProblems } from './usable.mjs';

useBrowser();

const boxes = (page, ids) => page.evaluate((ids) => Object.fromEntries(ids.map((id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [id, { top: r.top, bottom: r.bottom, left: r.left, right: r.right }];
})), ids);

for (const [width, height] of [[1280, 720], [1920, 1080]]) {
  for (const colorScheme of ['light', 'dark']) {
    test(`at ${width} × ${height} (${colorScheme}) the policy, play, topology and queue-time chart are all in sight`, async () => {
      const { page, errors } = await openApp(browser, server.url, { width, height, colorScheme });
      await page.waitForFunction(() => window.lbsim.simTime() > 1000);
      const parts = ['policy', 'play', 'topology', 'chart-percentiles'];
      for (const [id, box] of Object.entries(await boxes(page, parts))) {
        assert.ok(box.top >= 0 && box.left >= 0 && box.bottom <= height && box.right <= width,
          `${id} is at ${JSON.stringify(box)} in a ${width} × ${height} window`);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      await page.screenshot({ path: artifact(`lab-${width}x${height}-${colorScheme}.png`) });
      assert.deepEqual(await layoutProblems(page), []);
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}

test('on a 360 × 780 phone the picture starts within the first screen', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 360, height: 780 });
  const { topology } = await boxes(page, ['topology']);
  assert.ok(topology.top < 780 - 100, `the topology starts at ${topology.top} px`);
  await screenshot(page, 'lab-360x780');
  assert.deepEqual(await layoutProblems(page), []);
  assert.deepEqual(errors, []);
  await page.context().close();
});

for (const [width, height] of [[1024, 768], [1280, 900], [360, 780]]) {
  test(`at ${width} × ${height}, light and dark: nothing scrolls sideways (screenshots kept)`, async () => {
    for (const colorScheme of ['light', 'dark']) {
      const { page, errors } = await openApp(browser, server.url, { width, height, colorScheme });
      await page.waitForFunction(() => window.lbsim.simTime() > 1000);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
      await page.screenshot({ path: artifact(`lab-${width}x${height}-${colorScheme}.png`) });
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  });
}

// The picture stays in sight while the settings scroll, at desktop
// widths: at 1440 × 900 a reader who scrolled the settings to the trace
// box, some 3,400 px down, saw no picture. The settings scrolled to stay
// clickable at their centre, and the picture is not drawn over them.
for (const [width, height] of [[1440, 900], [1280, 720]]) {
  test(`at ${width} × ${height} the picture stays in sight beside the trace box`, async () => {
    const { page, errors } = await openApp(browser, server.url, { width, height });
    await page.waitForFunction(() => window.lbsim.simTime() > 1000);
    const settings = await page.locator('.lbsim-lab .controls').boundingBox();
    await page.mouse.move(settings.x + settings.width / 2, height / 2);
    for (let turns = 0; turns < 60; turns += 1) {
      const box = await page.locator('#trace-file').boundingBox();
      if (box.y + box.height / 2 < height / 2) break;
      await page.mouse.wheel(0, 200);
      await page.waitForTimeout(50);
    }
    const seen = await page.evaluate(() => {
      const hits = (element) => {
        const r = element.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { top: Math.round(r.top), bottom: Math.round(r.bottom), hit: hit === element || element.labels?.[0]?.contains(hit) || element.contains(hit) };
      };
      return { picture: hits(document.getElementById('topology')), trace: hits(document.getElementById('trace-file')) };
    });
    assert.ok(seen.trace.top >= 0 && seen.trace.bottom <= height && seen.trace.hit, `the trace box's file field: ${JSON.stringify(seen.trace)}`);
    assert.ok(seen.picture.top >= 0 && seen.picture.bottom <= height, `the picture lies at ${seen.picture.top} to ${seen.picture.bottom} px in a ${height} px window`);
    assert.ok(seen.picture.hit, 'something covers the picture');
    await page.screenshot({ path: artifact(`lab-${width}x${height}-trace-box.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// A bounce's mark and count lie where requests cross to the servers: in
// presenter and compare views "19 ✕" sat over the dots on their way in.
// Each now lies on a plate of its own, which no dot overprints.
for (const [mode, hash] of [['presenter', 'presenter=1'], ['compare', 'versus=policy:power-of-d&load=0.95']]) {
  test(`in the ${mode} view at 1280 × 720 no request or response dot overprints a bounce's mark or count`, async () => {
    const { page, errors } = await openApp(browser, server.url, { hash, width: 1280, height: 720 });
    const seen = await page.evaluate(async () => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      let view;
      while (!(view = window.lbsim.views()[0]) || view.frameCosts().length === 0) await frame();
      const style = getComputedStyle(document.querySelector('.lbsim-view'));
      const dots = ['--c-request', '--c-response'].map((name) => {
        const hex = style.getPropertyValue(name).trim();
        return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      });
      const pictures = [['bounceMarks', document.querySelector('.pane-a canvas.topology, canvas[id$="topology"]')],
        ['twinBounceMarks', document.querySelector('.pane-b canvas.topology')]].filter(([, canvas]) => canvas);
      let marks = 0;
      let firstMark;
      const overprinted = [];
      // Until three seconds after the first mark, or 15 s.
      for (const start = performance.now(); performance.now() - start < 15_000 && !(performance.now() - firstMark > 3_000); await frame()) {
        for (const [hook, canvas] of pictures) {
          const scale = canvas.width / canvas.clientWidth;
          for (const { server, plate: [x, y, w, h] } of JSON.parse(view[hook]() ?? '[]')) {
            marks += 1;
            firstMark ??= performance.now();
            const { data } = canvas.getContext('2d').getImageData(Math.round(x * scale) + 1, Math.round(y * scale) + 1, Math.max(1, Math.round(w * scale) - 2), Math.max(1, Math.round(h * scale) - 2));
            for (let i = 0; i < data.length; i += 4) {
              if (data[i + 3] > 200 && dots.some((c) => Math.hypot(data[i] - c[0], data[i + 1] - c[1], data[i + 2] - c[2]) < 40)) {
                overprinted.push(`${hook} server ${server}`);
                break;
              }
            }
          }
        }
      }
      return { marks, overprinted: [...new Set(overprinted)] };
    });
    assert.ok(seen.marks > 0, 'some server bounced a request in 15 s');
    assert.deepEqual(seen.overprinted, [], `dots over a bounce's mark or count (of ${seen.marks} drawn)`);
    await screenshot(page, `bounces-${mode}-1280x720`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test("chapter 1 on a 390 × 844 phone: with its figure scrolled to the top, the picture and the waits chart are both on screen", async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, errors } = await openApp(browser, server.url + 'explain.html', { width: 390, height: 844, colorScheme });
    const figure = page.locator('#one-server .lbsim-embed');
    await figure.evaluate((e) => e.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await page.waitForFunction(() => document.querySelector('#one-server .lbsim-embed').classList.contains('stacked'));
    await page.waitForTimeout(800);
    const seen = await figure.evaluate((e) => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height) };
      };
      return { picture: box(e.querySelector('.topology')), chart: box(e.querySelector('.charts figure.tab-shown canvas, .charts figure canvas')), window: innerHeight };
    });
    // The readouts its link names (readouts=p50,p99,throughput), the three its prose cites.
    const shown = await figure.evaluate((e) => [...e.querySelectorAll('.readouts > .readout')].filter((r) => r.checkVisibility())
      .map((r) => r.querySelector('.figure span[id]').id.replace(/^sim-one-server-/, '')));
    assert.deepEqual(shown, ['p50', 'p99', 'throughput'], `${colorScheme}: the readouts shown`);
    for (const part of ['picture', 'chart']) {
      const b = seen[part];
      assert.ok(b.height > 100 && b.top >= 0 && b.bottom <= seen.window, `${colorScheme}: the ${part} at ${b.top} to ${b.bottom} of ${seen.window}: ${JSON.stringify(seen)}`);
    }
    await page.screenshot({ path: artifact(`layout-one-server-390x844-${colorScheme}.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test("a waits chart whose median is 0 ms draws the median's line clear of the y axis", async () => {
  // One server of ten slots at a tenth of its capacity, seed 7: no request
  // waits, so the median (and the mean and the p99) is 0 ms.
  const { page, errors } = await openApp(browser, server.url + 'embed.html', { hash: 'servers=1&policy=random&load=0.1&seed=7&charts=waits', width: 1000, height: 700 });
  await page.waitForFunction(() => window.lbsim.simTime() > 4000, null, { timeout: 60_000 });
  await page.waitForTimeout(600);
  const found = await page.evaluate(() => {
    const canvas = document.querySelector('.charts canvas');
    const { width, height } = canvas;
    const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
    const at = (x, y) => data.slice((y * width + x) * 4, (y * width + x) * 4 + 3);
    const p50 = getComputedStyle(document.documentElement).getPropertyValue('--c-p50').trim();
    const want = [1, 3, 5].map((i) => parseInt(p50.slice(i, i + 2), 16));
    const like = (c, w, tolerance) => c.every((v, i) => Math.abs(v - w[i]) <= tolerance);
    // The y axis: the leftmost column with an unbroken run of one dark
    // colour over a third of the canvas.
    let axis = -1;
    for (let x = 0; x < width / 2 && axis < 0; x += 1) {
      let run = 0;
      for (let y = 1; y < height; y += 1) {
        const c = at(x, y);
        run = like(c, at(x, y - 1), 0) && c.reduce((a, b) => a + b) < 600 ? run + 1 : 0;
        if (run > height / 3) { axis = x; break; }
      }
    }
    // Pixels of the median's colour from 2 to 8 px right of the axis.
    let median = 0;
    for (let x = axis + 2; x <= axis + 8; x += 1) {
      for (let y = 0; y < height; y += 1) if (like(at(x, y), want, 40)) median += 1;
    }
    return { axis, median, p50 };
  });
  assert.ok(found.axis > 0, `no y axis found: ${JSON.stringify(found)}`);
  assert.ok(found.median >= 20, `the median's line is not drawn clear of the axis: ${JSON.stringify(found)}`);
  await page.screenshot({ path: artifact('layout-waits-median-zero.png') });
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Compare mode below 821 px put its charts after the whole settings list
// (at 390 × 844 they began some 8,000 px down), and its capacity panel
// stood tall with a blank chart before any search (627 px, 260 of them an
// empty canvas). On a phone both runs' pictures and then their charts
// come before the settings; the capacity panel is as tall as what it
// holds, its chart shown once a search has curves.
for (const colorScheme of ['light', 'dark']) {
  test(`compare at 390 × 844 (${colorScheme}): both runs' charts come before the settings, the capacity panel its own size`, async () => {
    const { page, errors } = await openApp(browser, server.url, { hash: 'versus=policy:power-of-d&load=0.95', width: 390, height: 844, colorScheme });
    await page.waitForFunction(() => window.lbsim.simTime() > 1000);
    const seen = await page.evaluate(() => {
      const top = (element) => element.getBoundingClientRect().top + scrollY;
      const bottom = (element) => element.getBoundingClientRect().bottom + scrollY;
      const pictures = [...document.querySelectorAll('.panes canvas.topology')].map(bottom);
      const chart = document.getElementById('chart-percentiles');
      const capacity = document.querySelector('.charts > figure.capacity');
      const shown = [...capacity.children].filter((child) => child.getBoundingClientRect().height > 0);
      const padding = parseFloat(getComputedStyle(capacity).paddingBottom) + parseFloat(getComputedStyle(capacity).borderBottomWidth);
      return {
        pictures,
        chart: top(chart),
        settings: top(document.querySelector('.controls')),
        lines: JSON.parse(window.lbsim.views()[0].chartLines()).percentiles ?? [],
        blank: bottom(capacity) - Math.max(...shown.map((child) => bottom(child) + parseFloat(getComputedStyle(child).marginBottom))) - padding,
        canvasShown: document.getElementById('capacity-chart').getBoundingClientRect().height > 0,
      };
    });
    assert.equal(seen.pictures.length, 2, 'two pictures');
    assert.ok(seen.pictures.every((bottom) => bottom < seen.chart), `pictures end at ${seen.pictures}, the chart starts at ${seen.chart}`);
    assert.ok(seen.chart < seen.settings, `the chart starts at ${seen.chart} px, the settings at ${seen.settings} px`);
    assert.ok(seen.lines.some((line) => line.startsWith('A ')) && seen.lines.some((line) => line.startsWith('B ')), `the chart draws both runs: ${seen.lines}`);
    assert.equal(seen.canvasShown, false, 'a blank capacity chart before any search');
    assert.ok(Math.abs(seen.blank) <= 2, `the capacity panel runs ${seen.blank} px past what it holds`);
    await page.screenshot({ path: artifact(`lab-compare-390x844-${colorScheme}.png`) });
    assert.deepEqual(await layoutProblems(page), []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
