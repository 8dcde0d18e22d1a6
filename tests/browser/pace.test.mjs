// A scenario far too heavy for real time (a hundred thousand times over)
// does not look dead: a note under the figures says how fast it runs
// against real time, the same figure as the clock's readout, and what
// would make it lighter; a scenario that keeps up shows no note. Slow
// motion goes down to 0.01×, timed against the wall clock; chapter 2's
// spike waits to be in sight, and its first half second, read frame by
// frame, draws its point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { browser, server, useBrowser, openApp, skipQuestion, artifact, ARTIFACTS } from './lib.mjs';

useBrowser();

const HEAVY = 'servers=10000&slots=1000&service_mean_ms=0.001&load=1.5';
const SAYS = /^Too heavy for real time: simulating at (0\.0*[1-9]\d?)× real time, one simulated second taking about [\d,]+ (s|min|hours|days)\. Fewer servers or slots, longer service times or a lower load make it lighter\.$/;

for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} a scenario too heavy for real time says how slow it runs and why`, async () => {
    const { page, errors } = await openApp(browser, server.url, { hash: HEAVY, width, height });
    const note = page.locator('#too-heavy');
    await note.waitFor({ state: 'visible', timeout: 20_000 });
    // The measured speed settles over a second or so of frames.
    await page.waitForFunction(() => /at 0\.00/.test(document.getElementById('too-heavy').textContent));
    // Read between two updates, so the note and the readout agree.
    const [text, readout] = await page.evaluate(() =>
      [document.getElementById('too-heavy').textContent, document.getElementById('actual-speed').textContent]);
    const speed = text.match(SAYS);
    assert.ok(speed, text);
    assert.equal(readout, `${speed[1]}× real time`);
    assert.ok(Number(speed[1]) < 0.01, text);
    // Under the figures, right by the clock, the two on one screen.
    await note.scrollIntoViewIfNeeded();
    const [clock, box] = await Promise.all([page.locator('#sim-time').boundingBox(), note.boundingBox()]);
    assert.ok(box.y > clock.y && box.y - (clock.y + clock.height) < 120, `note at ${box.y}, clock at ${clock.y}`);
    assert.ok(clock.y >= 0 && box.y + box.height <= height, `clock at ${clock.y}, note ending at ${box.y + box.height}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    // The screen with the clock and the note, as a person reads them.
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `too-heavy-${width}.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test('a scenario that keeps up with real time shows no note', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.waitForFunction(() => window.lbsim.simTime() > 2000);
  assert.equal(await page.isVisible('#too-heavy'), false);
  assert.deepEqual(errors, []);
  await page.context().close();
});

// While it waits it says so: "Collecting: 0 requests completed so far"
// beside the still picture read as a run that had stalled (reader 17).
test("chapter 2's spike waits until most of its view is in sight, saying so, then runs", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-spike'));
  const simTime = () => page.evaluate((i) => window.lbsim.views()[i].simTime(), index);
  const said = () => page.evaluate((i) => window.lbsim.views()[i].readback(), index);
  const waiting = 'The spike starts once its whole picture is in view.';
  // Its top 120 px in sight, under the text a reader is still reading:
  // the spike ran, and was over before the reader got to it.
  await page.evaluate(() => window.scrollBy(0, document.querySelector('#sim-spike').getBoundingClientRect().top - innerHeight + 120));
  await page.waitForTimeout(2500);
  assert.equal(await simTime(), 0, 'the spike waits');
  assert.equal(await said(), waiting);
  // Scrolled to, it runs, and says what it collects.
  await page.evaluate(() => document.querySelector('#sim-spike').scrollIntoView({ block: 'center' }));
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 200, index, { timeout: 10_000 });
  await page.waitForFunction(([i, w]) => window.lbsim.views()[i].readback() !== w, [index, waiting], { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

// At the page's load half of chapter 1's picture is in sight under the
// introduction, as much as of chapter 2's with its heading at the top
// (arrival.test): the reader has not come to chapter 1 yet, so its
// opening trip waits.
test("chapter 1, waiting for most of it to come in sight, already draws its still picture", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const chapter = page.locator('#sim-one-server');
  const top = await chapter.evaluate((e) => e.getBoundingClientRect().top);
  assert.ok(top > 450 && top < 900, `chapter 1 starts at y ${top}, partly in sight`);
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-one-server'));
  const inked = () => chapter.locator('canvas.topology').evaluate((canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 3; i < data.length; i += 4) count += data[i] !== 0;
    return count;
  });
  await page.waitForFunction(() => window.lbsim?.views().length > 0);
  await page.waitForTimeout(2000);
  assert.ok((await inked()) > 500, 'the clients and the server are drawn before the run starts');
  assert.equal(await page.evaluate((i) => window.lbsim.views()[i].simTime(), index), 0, 'the run waits');
  await chapter.evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 0, index, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

// A spike that started in sight and ran on while the reader scrolled back
// up to the three paragraphs above it (its heading at the top of a 1440 ×
// 900 window, half its picture in sight) was over before they looked.
// Once over unseen, it plays once more when the whole picture comes in
// sight; and a baseline pinned after it says it kept the whole run, not
// "pinned at 0.6 s".
test("chapter 2's spike, over before its whole picture was in sight, plays again once it is, once", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-spike'));
  const simTime = () => page.evaluate((i) => window.lbsim.views()[i].simTime(), index);
  const button = () => page.textContent('#spike .play');
  await page.evaluate(() => document.getElementById('sim-spike').scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.waitForSelector('#sim-spike .topology');
  await page.evaluate(() => document.querySelector('#sim-spike .topology').scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 0, index, { timeout: 10_000 });
  await page.evaluate(() => document.getElementById('spike-title').scrollIntoView({ block: 'start', behavior: 'instant' }));
  await page.waitForFunction(() => document.querySelector('#spike .play')?.textContent === 'Replay', null, { timeout: 30_000 });
  const over = await simTime();
  const completed = () => page.evaluate((i) => JSON.parse(window.lbsim.views()[i].summary()).counts.completed, index);
  const first = await completed();
  const picture = await page.evaluate(() => document.querySelector('#sim-spike .topology').getBoundingClientRect().toJSON());
  assert.ok(picture.bottom > 900, `over with the picture from ${picture.top} to ${picture.bottom} px`);
  await page.waitForTimeout(1000);
  assert.equal(await simTime(), over, 'half in sight, it waits on its last picture');
  // The reader scrolls on to the picture: the spike plays for them.
  await page.evaluate(() => document.querySelector('#sim-spike .topology').scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.waitForFunction(({ i, over }) => window.lbsim.views()[i].simTime() < over, { i: index, over }, { timeout: 5_000 });
  assert.equal(await button(), 'Pause');
  await page.waitForFunction(() => document.querySelector('#spike .play')?.textContent === 'Replay', null, { timeout: 30_000 });
  // The same spike to its end: its clock stops at the frame after its
  // last session, so its requests are compared, not its time.
  assert.equal(await completed(), first, 'the same spike, to its end');
  const again = await simTime();
  // Seen whole, it does not play again by itself.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.evaluate(() => document.querySelector('#sim-spike .topology').scrollIntoView({ block: 'center', behavior: 'instant' }));
  await page.waitForTimeout(1500);
  assert.deepEqual([await simTime(), await button()], [again, 'Replay']);
  await page.click('#spike .pin');
  assert.equal(await page.textContent('#sim-spike-reference-label'), 'pinned: the whole run, random');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('slow motion down to 0.01×: a five-millisecond hop lasts half a second', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'speed=0.01' });
  const start = await page.evaluate(() => window.lbsim.simTime());
  await page.waitForTimeout(1000);
  const advanced = (await page.evaluate(() => window.lbsim.simTime())) - start;
  assert.ok(advanced > 5 && advanced < 15, `${advanced} simulated ms in a wall second`);
  assert.equal(await page.textContent('#speed-value'), '0.01 ×');
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Chapter 2 opened at five hundred clients, whose queues of 28 to 42 all
// looked alike to a student (reader 9): the spike's unevenness hid in
// small numbers beside ten full rows. It opens at two hundred, a hundred
// slots for two hundred first requests, and its picture shows the point
// itself: a server queueing ten or more while a neighbour has free slots,
// in the spike's first half second (at five hundred, as the spike drains
// some seconds later, a queue of ten beside free slots is drawn too: not
// the point, nor what the prose says).
test("chapter 2's spike, in its first half second, draws a long queue beside a server with free slots", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  const view = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-spike'));
  await page.evaluate(() => document.getElementById('sim-spike').scrollIntoView({ block: 'start', behavior: 'instant' }));
  await skipQuestion(page, 'spike');
  // Read at each frame until the run passes half a simulated second.
  const uneven = await page.evaluate(async (i) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const start = performance.now();
    for (; window.lbsim.views()[i].simTime() <= 500 && performance.now() - start < 20_000; await frame()) {
      const servers = JSON.parse(window.lbsim.views()[i].servers());
      if (window.lbsim.views()[i].simTime() > 0 && servers.some((s) => s.queued >= 10) && servers.some((s) => s.busy < 10)) {
        return servers.map((s) => `${s.busy}+${s.queued}`);
      }
    }
    return null;
  }, view);
  assert.ok(uneven, 'no frame of the first half second drew a queue of ten beside free slots');
  await page.screenshot({ path: artifact('teaching-spike-uneven-1440.png') });
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Reader 11 came to chapter 2 as their script scrolls (scrollIntoViewIfNeeded
// on the section, which brought its whole picture in sight for a frame,
// then its heading to the top): the spike ran on half in sight, and when
// they scrolled to the picture it was over. Reader 12 opened the chapter
// by its link and read 4 s: the spike was over. It now holds at its start
// until its whole picture has been in sight a second (ui::spike::Start).
for (const arrival of ['scroll', 'link']) {
  test(`chapter 2's spike, reached by ${arrival === 'link' ? 'its link' : "reader 11's scroll"}, waits at its start until its picture is in sight, then runs from it`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html${arrival === 'link' ? '#spike' : ''}`, { width: 1440, height: 900 });
    const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-spike'));
    const simTime = () => page.evaluate((i) => window.lbsim.views()[i].simTime(), index);
    if (arrival === 'scroll') {
      await page.waitForTimeout(1000);
      await page.locator('section#spike').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.getElementById('spike').scrollIntoView({ block: 'start' }));
    }
    // The reader reads the paragraphs above the picture for 4 s.
    await page.waitForFunction(() => window.lbsim?.views().length > 0);
    await page.waitForTimeout(4000);
    const picture = await page.evaluate(() => document.querySelector('#sim-spike .topology').getBoundingClientRect().toJSON());
    assert.ok(picture.bottom > 900, `the picture is not wholly in sight (${Math.round(picture.top)} to ${Math.round(picture.bottom)} px)`);
    assert.equal(await simTime(), 0, 'the spike ran before its picture was in sight');
    // They scroll on to the picture: a second later the spike runs, from its start.
    await page.evaluate(() => document.querySelector('#sim-spike .topology').scrollIntoView({ block: 'center', behavior: 'instant' }));
    await page.waitForTimeout(600);
    assert.equal(await simTime(), 0, 'started before the picture had been in sight a second');
    await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 0, index, { timeout: 5_000 });
    assert.ok(await simTime() < 300, `the spike at ${await simTime()} ms as it was first seen running`);
    assert.equal(await page.textContent('#spike .play'), 'Pause');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// Chapter 2's strip read p99 before p50, chapter 1's p50 first.
test("chapters 1 and 2 order their strips alike: p50, then p99", async () => {
  for (const [width, height] of [[1440, 900], [390, 844]]) {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
    for (const id of ['one-server', 'spike']) {
      await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start' }), id);
      await page.waitForTimeout(1500);
      const order = await page.evaluate((id) => [...document.querySelectorAll(`#sim-${id} .readout`)]
        .filter((box) => box.checkVisibility()).sort((a, b) => {
          const [ra, rb] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
          return ra.top - rb.top > 4 ? 1 : rb.top - ra.top > 4 ? -1 : ra.left - rb.left;
        }).map((box) => box.querySelector('.name')?.textContent.split(' queue')[0]), id);
      assert.deepEqual(order.slice(0, 2), ['p50', 'p99'], `${id} at ${width}: ${order}`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});
