// Contenders drawn side by side, and a guess before the reveal. Every view
// with a twin (`versus=`) draws two pictures, both moving, each titled by
// what its run is, never a letter alone; the chapters that ask (`ask=1`)
// wait at their question until a click on an answer, then run and say
// whether the guess held, with the numbers. Which pictures a view draws
// and where its question stands are `lbsim::ui::twins` and `ui::guess`,
// tested natively; this checks them as a reader meets them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, screenshot, drawnFraction, artifact } from './lib.mjs';
import { layoutProblems } from './usable.mjs';

useBrowser();

/** The view's pictures: each canvas's id, its pixels now, and its title. */
const pictures = (page, root) => page.evaluate((root) => [...document.querySelector(root).querySelectorAll('canvas.topology')]
  .map((canvas) => ({ id: canvas.id, pixels: canvas.toDataURL(), title: canvas.parentElement.querySelector('.pane-title')?.textContent })),
root);

/** Clicks at the centre of `locator`, as a reader does. */
async function clickCentre(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** The chapters with a twin: their ids, views' indices and whether they ask. */
const twinned = (page) => page.evaluate(() => {
  const roots = [...document.querySelectorAll('[data-lbsim]')];
  return roots.filter((root) => /(^|&)versus=/.test(root.dataset.lbsimSettings))
    .map((root) => ({ id: root.closest('section').id, view: roots.indexOf(root), asks: /(^|&)ask=1/.test(root.dataset.lbsimSettings) }));
});

test('every chapter with a twin draws two pictures, both moving, each titled by what differs', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const chapters = await twinned(page);
  assert.ok(chapters.length >= 12, `${chapters.length} chapters with a twin`);
  for (const { id, view, asks } of chapters) {
    const root = `#${id} .lbsim-embed`;
    await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'center' }), root);
    if (asks) await clickCentre(page, page.locator(`${root} .question .skip-guess`));
    await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 300, view);
    const before = await pictures(page, root);
    assert.equal(before.length, 2, `${id}: ${before.length} pictures`);
    await page.waitForTimeout(500);
    const after = await pictures(page, root);
    for (const [i, picture] of after.entries()) {
      assert.notEqual(picture.pixels, before[i].pixels, `${id}: picture ${picture.id} did not move`);
      assert.match(picture.title, /^[AB]: \S.{2,}/, `${id}: picture titled "${picture.title}"`);
    }
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a versus embed at 680 × 400 draws both runs, named in the pictures, the chart and the sentence', async () => {
  const hash = 'warmup_s=2&policy=power-of-d&load=0.9&versus=policy:random&say=versus';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 680, height: 400 });
  await page.waitForFunction(() => window.lbsim.views()[0].readback().includes('than with'), null, { timeout: 20_000 });
  const shown = await pictures(page, '.lbsim-embed');
  assert.deepEqual(shown.map((p) => p.title), ['A: power of two choices', 'B: random']);
  const legend = await page.evaluate(() => [...document.querySelectorAll('.charts .legend li')]
    .filter((item) => !item.hidden).map((item) => item.textContent));
  assert.ok(legend.includes('A: power of two choices, in colour'), legend.join(' | '));
  assert.ok(legend.includes('B: random, its p50 and p99 in grey'), legend.join(' | '));
  assert.match(await page.evaluate(() => window.lbsim.views()[0].readback()),
    /p99 queue time with power of two choices is .* than with random on the same arrivals/);
  assert.deepEqual(await layoutProblems(page), []);
  await screenshot(page, 'twins-embed-680x400');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a twin with controls and sentences at 680 × 400 gives the row to its pictures, and the chart opens from a button', async () => {
  const hash = 'policy=power-of-d&versus=policy:random&controls=load&charts=percentiles&say=versus,ratios';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 680, height: 400 });
  await page.waitForFunction(() => window.lbsim.views()[0].readback().includes('than with'), null, { timeout: 20_000 });
  await page.waitForTimeout(600);
  const [a, b] = await page.evaluate(() => [...document.querySelectorAll('canvas.topology')]
    .map((canvas) => canvas.getBoundingClientRect()).map(({ top, width, height }) => ({ top, width, height })));
  assert.equal(a.top, b.top, 'the pictures sit side by side');
  assert.ok(a.width * a.height + b.width * b.height >= 0.4 * 680 * 400, `pictures ${JSON.stringify([a, b])}`);
  const chart = page.locator('.charts canvas').first();
  assert.equal(await chart.isVisible(), false);
  const button = page.getByRole('button', { name: 'Chart', exact: true });
  await clickCentre(page, button);
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  await page.waitForTimeout(400);
  assert.ok(await chart.isVisible());
  assert.ok(await drawnFraction(page, await chart.getAttribute('id')) > 0.01, 'the opened chart is drawn');
  await screenshot(page, 'twins-embed-680x400-chart');
  await clickCentre(page, button);
  assert.equal(await chart.isVisible(), false);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** The two p99s a verdict names, own then twin, in ms. */
const verdictNumbers = (text) => [...text.matchAll(/([\d.]+) (ms|s) with/g)].map(([, x, unit]) => Number(x) * (unit === 's' ? 1000 : 1));

for (const [width, height, colorScheme] of [[1440, 900, 'light'], [390, 844, 'dark']]) {
  test(`at ${width} px the chapters that ask wait at their question and reveal after an answer`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height, colorScheme });
    const asking = (await twinned(page)).filter((chapter) => chapter.asks);
    assert.deepEqual(asking.map((c) => c.id), ['repick', 'power-of-two', 'stale', 'balancers', 'fleet', 'connections']);
    for (const { id, view } of asking) {
      const root = `#${id} .lbsim-embed`;
      await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), root);
      await page.waitForFunction((i) => window.lbsim.views()[i].onScreen(), view);
      await page.waitForTimeout(1000);
      assert.equal(await page.evaluate((i) => window.lbsim.views()[i].simTime(), view), 0, `${id}: ran before the answer`);
      const group = page.getByRole('group', { name: /which has the longer tail/ }).and(page.locator(`${root} .question`));
      const answers = group.getByRole('button');
      const names = await answers.allTextContents();
      assert.equal(names.length, 4, `${id}: ${names}`);
      // The twin is random, but where it picks per request beside one pick per connection.
      const guess = id === 'connections' ? 'one pick per request' : 'random';
      assert.equal(names[1], guess);
      assert.deepEqual(names.slice(2), ['About the same', 'Skip: just run it']);
      await screenshot(page, `twins-${id}-${width}-${colorScheme}-asking`);
      // The prose that tells the answer waits for the guess.
      const reveals = page.locator(`#${id} [data-reveal]`);
      const told = async () => Promise.all((await reveals.all()).map((p) => p.isVisible()));
      assert.ok((await told()).every((shown) => !shown), `${id}: the answer is told before the question`);
      // The reader guesses the twin has the longer tail. The prose that
      // tells the answer waits for the verdict, when the runs have made
      // their point (told at the answer, chapter 4's "cannot be measured"
      // sat under two pictures still the same); it comes with it.
      await clickCentre(page, answers.nth(1));
      const verdict = page.locator(`${root} .question .verdict`);
      // Chapter 4 runs its pair on twenty more seeds and grades the
      // guess by their dots, once all are in.
      const seeded = await page.locator(`${root} .spread`).count() > 0;
      const early = await page.evaluate(async ({ root, id, waitMs }) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        const shown = () => [...document.querySelectorAll(`#${id} [data-reveal]`)].some((p) => p.getClientRects().length > 0);
        const verdict = document.querySelector(`${root} .question .verdict`);
        const frames = [];
        const start = performance.now();
        for (; !/^Your guess/.test(verdict.textContent) && performance.now() - start < waitMs; await frame()) {
          if (shown()) frames.push(verdict.textContent);
        }
        return frames;
      }, { root, id, waitMs: seeded ? 150_000 : 40_000 });
      assert.deepEqual(early, [], `${id}: the answer's prose showed before the verdict, beside "${early[0]}"`);
      assert.ok((await told()).every((shown) => shown), `${id}: the answer's prose stays hidden after the verdict`);
      const said = await verdict.textContent();
      assert.match(said, /^Your guess/, `${id}: no verdict in time`);
      assert.ok(await page.evaluate((i) => window.lbsim.views()[i].simTime(), view) > 0);
      const held = said.startsWith(`Your guess held: ${guess} has the longer tail`);
      if (seeded) {
        // In the words under the dots (graded on one run by "within 15%
        // of each other", it sat over dots 0.96 to 1.05, reader 14), and
        // by their mean and its standard error.
        const under = await page.locator(`${root} .spread-words`).textContent();
        const [, range] = said.match(/: over the 20 seeds dotted under the pictures, (the p99 with .+ times that with random), on average /) ?? [];
        assert.ok(range && under.includes(`: ${range};`), `${id}: ${said} beside ${under}`);
        const [, mean, se] = (under.match(/on average ([\d.]+), that average known to ±([\d.]+) \(a standard error\)\.$/) ?? []).map(Number);
        assert.ok(se > 0 && said.includes(`on average ${mean.toFixed(3)}, that average known to ±${se.toFixed(3)} (a standard error).`), `${said} beside ${under}`);
        assert.equal(held, 1 - mean > 2 * se, `${id}: ${said}`);
      } else {
        const [own, twin] = verdictNumbers(said);
        assert.ok(own > 0 && twin > 0, said);
        assert.equal(held, own < 0.87 * twin, `${id}: ${said}`);
      }
      if (!held) assert.ok(said.startsWith(`Your guess, ${guess}, did not hold: `), said);
      assert.equal(await answers.first().isVisible(), false, `${id}: the answers stay after the guess`);
      await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), root);
      await screenshot(page, `twins-${id}-${width}-${colorScheme}-answered`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test('an embed asks only when its link asks, and answers take the keyboard and Play skips', async () => {
  const plain = 'policy=power-of-d&load=0.9&versus=policy:random&say=versus';
  const quiet = await openApp(browser, `${server.url}embed.html`, { hash: plain, width: 800, height: 600 });
  await quiet.page.waitForFunction(() => window.lbsim.simTime() > 300);
  assert.equal(await quiet.page.locator('.question').count(), 0);
  await quiet.page.context().close();

  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash: `${plain}&ask=1`, width: 800, height: 600 });
  const group = page.getByRole('group', { name: 'Which has the longer tail, the slowest 1% of waits in the queue: power of two choices or random?' });
  await group.waitFor();
  await page.waitForTimeout(800);
  assert.equal(await page.evaluate(() => window.lbsim.simTime()), 0);
  assert.deepEqual(await layoutProblems(page), []);
  await group.getByRole('button', { name: 'power of two choices' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^Your guess, power of two choices, did not hold: random has the longer tail; /
    .test(document.querySelector('.question .verdict').textContent), null, { timeout: 30_000 });
  assert.deepEqual(await layoutProblems(page), []);
  await page.context().close();

  const skipped = await openApp(browser, `${server.url}embed.html`, { hash: `${plain}&ask=1`, width: 800, height: 600 });
  await skipped.page.locator('.question').waitFor();
  await clickCentre(skipped.page, skipped.page.locator('button.play'));
  await skipped.page.waitForFunction(() => /^The answer: random has the longer tail; /.test(document.querySelector('.question .verdict').textContent), null, { timeout: 30_000 });
  await skipped.page.context().close();
  assert.deepEqual(errors, []);
});

test('a guess is retired, not graded again, once the reader changes a setting', async () => {
  const hash = 'policy=power-of-d&load=0.9&versus=policy:random&say=versus&ask=1&controls=load';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 800, height: 600 });
  const verdict = () => page.evaluate(() => document.querySelector('.question .verdict').textContent);
  await page.locator('.question').waitFor();
  await clickCentre(page, page.locator('.question').getByRole('button', { name: 'random', exact: true }));
  await page.waitForFunction(() => /^Your guess held: random has the longer tail; /
    .test(document.querySelector('.question .verdict').textContent), null, { timeout: 30_000 });
  // The reader moves the load a step down: the run starts over at it.
  await page.locator('input[type=range]').first().focus();
  await page.keyboard.press('ArrowLeft');
  const retired = /^You changed the settings: the run now differs from the one you guessed about(\.|; over \d+ simulated seconds, p99 queue time is [\d.]+ m?s with power of two choices against [\d.]+ m?s with random\.)$/;
  await page.waitForFunction((source) => new RegExp(source).test(document.querySelector('.question .verdict').textContent),
    retired.source, { timeout: 10_000 });
  // Read again as the new run goes on, it stays retired.
  await page.waitForFunction(() => window.lbsim.simTime() > 3000, null, { timeout: 30_000 });
  assert.match(await verdict(), retired);
  assert.match(await verdict(), /; over \d+ simulated seconds/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the answers chapters 4, 5 and 6 share ("random") are each named by their chapter, their text as it was', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const chapters = [['repick', '4 Repick after a bounce'], ['power-of-two', '5 Power of two, reading live load'],
    ['stale', '6 Power of two, with load it has to learn']];
  for (const [id, heading] of chapters) {
    const root = `#${id} .lbsim-embed`;
    await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), root);
    await page.locator(`${root} .question .answer`).first().waitFor();
    for (const words of ['random', 'Skip: just run it']) {
      const named = page.getByRole('button', { name: `${words} (${heading})`, exact: true });
      assert.equal(await named.count(), 1, `${id}: "${words}"`);
      assert.equal(await named.textContent(), words);
      assert.equal(await named.evaluate((button, root) => button.closest(root) !== null, root), true, `${id}: "${words}"`);
    }
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 4 counts each run's bounces over its picture, beside a verdict nothing covers", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const root = '#repick .lbsim-embed';
  await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), root);
  await clickCentre(page, page.locator(`${root} .question`).getByRole('button', { name: 'random (4 Repick after a bounce)', exact: true }));
  // The verdict waits for the twenty seeds' dots (15 s on a quiet machine).
  await page.waitForFunction((root) => /^Your guess/.test(document.querySelector(`${root} .question .verdict`).textContent), root, { timeout: 150_000 });
  const titles = await page.locator(`${root} .pane-title`).allTextContents();
  assert.equal(titles.length, 2);
  const rare = titles.map((title) => Number(title.match(/ · 1 in ([\d,]+) bounced$/)?.[1].replace(/,/g, '')));
  assert.ok(rare.every((n) => n > 300), `bounces are rare in both runs: ${titles}`);
  assert.match(titles[0], /^A: random that repicks after a bounce · /);
  assert.match(titles[1], /^B: random · /);
  // No chart of last-second tails folds over the verdict to tell another story.
  const chartButtons = await page.evaluate((root) => [...document.querySelectorAll(`${root} button`)]
    .filter((button) => button.textContent === 'Chart' && button.getClientRects().length > 0).length, root);
  assert.equal(chartButtons, 0);
  assert.equal(await page.locator(`${root} canvas:not(.topology)`).count(), 0, 'no chart drawn');
  const verdict = page.locator(`${root} .question .verdict`);
  const box = await verdict.boundingBox();
  const top = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('.verdict') !== null, [box.x + box.width / 2, box.y + box.height / 2]);
  assert.ok(top, 'the verdict is the topmost element at its centre');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("a versus embed marks each run's bounces in its own picture: the twin's crosses as the view's own", async () => {
  const hash = 'policy=power-of-d&versus=policy:random&load=0.95&say=versus&seed=3';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 900, height: 600 });
  // Over 10 s of wall time, each fresh mark of the twin's picture and the
  // colour at its cross's centre in the frame that drew it.
  const fresh = await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let view;
    while (!(view = window.lbsim.views()[0]) || view.frameCosts().length === 0) await frame();
    const canvas = document.querySelector('.pane-b canvas.topology');
    const scale = canvas.width / canvas.clientWidth;
    const fresh = new Map();
    for (const start = performance.now(); performance.now() - start < 10_000 && fresh.size < 3; await frame()) {
      const marks = JSON.parse(view.twinBounceMarks());
      for (const { server, bounced, rect: [x, y, w, h] } of marks.filter((m) => m.strength === 1)) {
        const key = `${server}:${bounced}`;
        if (fresh.has(key)) continue;
        const [r, g, b, a] = canvas.getContext('2d').getImageData(Math.round((x + w / 2) * scale), Math.round((y + h / 2) * scale), 1, 1).data;
        const inside = x >= 0 && y >= 0 && x + w <= canvas.clientWidth && y + h <= canvas.clientHeight;
        fresh.set(key, { server, inside, colour: [r, g, b, a] });
      }
    }
    return [...fresh.values()];
  });
  assert.ok(fresh.length >= 1, 'random, the twin, bounces at load 0.95 and its picture marks it');
  assert.ok(fresh.every((m) => m.inside), `each cross inside the twin's picture: ${JSON.stringify(fresh)}`);
  const vermilion = ([r, g, b, a]) => a > 200 && r > 170 && g < 130 && b < 80;
  assert.ok(fresh.some((m) => vermilion(m.colour)), `a cross drawn in the bounces' colour at its centre: ${JSON.stringify(fresh)}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('at 390 × 844 a chapter with a twin shows both titled pictures on one screen, asking and after the answer', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 390, height: 844, colorScheme: 'dark' });
  for (const { id } of (await twinned(page)).filter(({ id }) => ['repick', 'power-of-two', 'stale'].includes(id))) {
    const view = page.locator(`#sim-${id}`);
    // Asking, the question at the screen's top shows both pictures under
    // it (above it, the sentence's room, held for after the answer, says
    // the runs start then); answered, the reader scrolled to A's title
    // sees B whole too.
    const onOneScreen = async (when, top) => {
      await view.scrollIntoViewIfNeeded();
      await view.locator(top).first().waitFor();
      await view.evaluate((e, top) => e.querySelector(top).scrollIntoView({ block: 'start' }), top);
      await page.waitForTimeout(300);
      const panes = await view.evaluate((e) => [...e.querySelectorAll('canvas.topology')].map((c) => {
        const title = c.parentElement.querySelector('.pane-title');
        return { top: title.getBoundingClientRect().top, bottom: c.getBoundingClientRect().bottom, title: title.textContent };
      }));
      assert.equal(panes.length, 2, `${id}: two pictures`);
      assert.ok(panes.every((p) => p.title.length > 3), `${id}: each titled: ${panes.map((p) => p.title)}`);
      assert.ok(panes.every((p) => p.top >= -1 && p.bottom <= 844), `${id} ${when}: both pictures within the screen: ${JSON.stringify(panes)}`);
    };
    await onOneScreen('asking', '.question');
    const held = await view.evaluate((e) => getComputedStyle(e.querySelector('.readback'), '::before').content);
    assert.equal(held, '"The runs start once you answer the question, or skip."', `${id}: the held room while asking`);
    await clickCentre(page, page.locator(`#${id} .question button`).first());
    await page.waitForTimeout(2_000);
    await onOneScreen('answered', '.pane-title');
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('chapter 4 runs from the answer on, as the reader watches: first that both runs share their requests, then the verdict', async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const root = '#repick .lbsim-embed';
  const view = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-repick'));
  await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), root);
  await clickCentre(page, page.locator(`${root} .question`).getByRole('button', { name: 'random (4 Repick after a bounce)', exact: true }));
  await page.waitForTimeout(400);
  // It ran 8 simulated seconds ahead, unwatched, before.
  const simMs = await page.evaluate((i) => window.lbsim.views()[i].simTime(), view);
  assert.ok(simMs < 2_000, `0.4 s after the answer the run is ${simMs.toFixed(0)} ms in`);
  assert.equal(await page.locator(`${root} .question .verdict`).textContent(),
    'Watch both pictures: the same requests reach A and B at the same moments, and only how each picks a server differs, so their queues part. The verdict comes once all 20 seeds\' dots are in.');
  await page.waitForFunction((root) => /^Your guess/.test(document.querySelector(`${root} .question .verdict`).textContent), root, { timeout: 150_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 5's legend lists the servers a choice compared only while the picture draws one, which it holds long enough to see", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const root = '#power-of-two .lbsim-embed';
  const view = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-power-of-two'));
  await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start' }), root);
  await clickCentre(page, page.locator(`${root} .question .skip-guess`));
  // Each frame for 8 s of wall time: whether the legend shows, whether it
  // lists the choice, and whether the picture drew one (its lines; the
  // winner is ringed only while its row is as the decision met it).
  const frames = await page.evaluate(async ({ root, index }) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const view = window.lbsim.views()[index];
    const seen = (li) => li.getClientRects().length > 0 && getComputedStyle(li).visibility === 'visible';
    const entry = (text) => [...document.querySelectorAll(`${root} .stage .legend li`)].find((li) => li.textContent.includes(text));
    const frames = [];
    for (const start = performance.now(); performance.now() - start < 8_000; await frame()) {
      const decision = view.decision();
      frames.push({
        legend: seen(entry('request')),
        listed: seen(entry('servers compared')),
        drawn: decision !== undefined && JSON.parse(decision).ringInk > 0,
      });
    }
    return frames;
  }, { root, index: view });
  assert.ok(frames.filter((f) => f.legend).length > frames.length / 2, `the legend shows: ${frames.filter((f) => f.legend).length} of ${frames.length} frames`);
  const listedUndrawn = frames.filter((f) => f.listed && !f.drawn).length;
  const drawnUnlisted = frames.filter((f) => f.legend && f.drawn && !f.listed).length;
  assert.equal(listedUndrawn, 0, `listed in ${listedUndrawn} of ${frames.length} frames that drew no choice`);
  assert.equal(drawnUnlisted, 0, `a choice drawn, unlisted, in ${drawnUnlisted} frames`);
  // A choice is held long enough to see: drawn in most frames, and its
  // entry steady. Drawn only while its rows agreed, it showed in 3 frames
  // of 237, and the entry blinked on and off with it.
  const drawn = frames.filter((f) => f.drawn).length;
  assert.ok(drawn > frames.length * 0.8, `a choice drawn in ${drawn} of ${frames.length} frames`);
  const shown = frames.filter((f) => f.legend);
  const changes = shown.filter((f, i) => i > 0 && f.listed !== shown[i - 1].listed).length;
  assert.ok(changes <= 1, `the entry listed or unlisted ${changes} times in ${shown.length} frames`);
  console.log(`chapter 5 at 1440 × 900: a choice drawn in ${drawn} of ${frames.length} frames; the entry changed ${changes} times`);
  await screenshot(page, 'twins-power-of-two-1440-legend');
  assert.deepEqual(errors, []);
  await page.context().close();
});

// On a phone the verdict's room (five lines) is held under the question,
// and the answers share its cell: stretched to it, chapter 5's were 50 px
// tall where 32 px was asked. Each keeps its own size, a target of at
// least 24 × 24 px that takes a click at its centre.
for (const colorScheme of ['light', 'dark']) {
  test(`at 390 × 844 (${colorScheme}) chapter 5's answers keep their own size, each taking a click at its centre`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 390, height: 844, colorScheme });
    const root = '#sim-power-of-two';
    await page.evaluate((root) => document.querySelector(root).scrollIntoView({ block: 'start', behavior: 'instant' }), root);
    await page.locator(`${root} .question button`).first().waitFor();
    await page.waitForTimeout(300);
    // The answers to the question it asks: those to another question are hidden.
    const buttons = await page.evaluate((root) => [...document.querySelectorAll(`${root} .question button:not([hidden])`)].map((button) => {
      const box = button.getBoundingClientRect();
      const style = getComputedStyle(button);
      const text = document.createRange();
      text.selectNodeContents(button);
      const px = (name) => parseFloat(style[name]);
      // Its own height: its text's lines, padding and border, or its least height if more.
      const own = Math.max(px('minHeight'), text.getBoundingClientRect().height + px('paddingTop') + px('paddingBottom') + px('borderTopWidth') + px('borderBottomWidth'));
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return { text: button.textContent, width: box.width, height: box.height, own, hit: button.contains(hit) };
    }), root);
    await page.screenshot({ path: artifact(`twins-answers-390-${colorScheme}.png`) });
    assert.deepEqual(buttons.map((b) => b.text), ['power of two choices', 'random', 'About the same', 'Skip: just run it']);
    for (const b of buttons) {
      assert.ok(Math.abs(b.height - b.own) <= 1, `"${b.text}" is ${b.height} px tall, its own height ${b.own} px`);
      assert.ok(b.width >= 24 && b.height >= 24, `"${b.text}" is a target of ${b.width} × ${b.height} px`);
      assert.ok(b.hit, `a click at the centre of "${b.text}" reaches it`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
