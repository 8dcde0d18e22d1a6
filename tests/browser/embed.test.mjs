// embed.html: one view, configured entirely by its link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { browser, server, useBrowser, openApp, drawnFraction, noticeSays, screenshot, summary, hashEntries, CLI } from './lib.mjs';

useBrowser();

const simTime = (page) => page.evaluate(() => window.lbsim.simTime());
const settle = (page) => page.waitForTimeout(1200);
const embed = (options) => openApp(browser, `${server.url}embed.html`, options);

test('an embed shows only the controls and charts asked for, with its caption, height and theme', async () => {
  const hash = 'policy=power-of-d&controls=policy,staleness_ms&charts=percentiles,load&caption=Power%20of%20two&height=600&theme=dark';
  const { page, errors } = await embed({ hash, width: 1280, height: 800 });
  await page.waitForFunction(() => window.lbsim.simTime() > 2000);
  await settle(page);
  const shown = await page.evaluate(() => ({
    controls: [...document.querySelectorAll('.control select, .control input')].map((e) => e.id),
    canvases: [...document.querySelectorAll('canvas')].map((e) => e.id),
    caption: document.querySelector('.caption').textContent,
    height: document.querySelector('[data-lbsim]').getBoundingClientRect().height,
    background: getComputedStyle(document.querySelector('[data-lbsim]')).backgroundColor,
    settingsPanel: document.querySelector('aside') !== null,
  }));
  assert.deepEqual(shown.controls, ['policy', 'staleness_ms']);
  assert.deepEqual(shown.canvases, ['topology', 'chart-percentiles', 'chart-load']);
  assert.equal(shown.caption, 'Power of two');
  assert.equal(shown.height, 600);
  const [r, g, b] = shown.background.match(/\d+/g).map(Number);
  assert.ok(r + g + b < 150, `dark background expected, got ${shown.background}`);
  assert.equal(shown.settingsPanel, false, 'no settings panel in an embed');
  for (const id of shown.canvases) {
    // A chart folded behind its tab (the frame is too short for both) is
    // shown by its tab first.
    const tab = await page.evaluate((id) => {
      const figure = document.getElementById(id).closest('figure');
      return figure && !figure.offsetParent ? [...figure.parentElement.querySelectorAll(':scope > figure')].indexOf(figure) : -1;
    }, id);
    if (tab >= 0) {
      await page.click(`.chart-tabs button:nth-child(${tab + 1})`);
      await page.waitForTimeout(500);
    }
    const drawn = await drawnFraction(page, id);
    assert.ok(drawn > 0.01, `#${id} is blank (${(drawn * 100).toFixed(2)}% of pixels drawn)`);
  }
  assert.equal((await summary(page)).policy, 'power-of-d');
  // Controls that did not fit beside the buttons are behind More.
  if (!(await page.isVisible('#policy'))) await page.click('#more-toggle');
  await page.selectOption('#policy', 'random');
  assert.equal((await summary(page)).policy, 'random', 'the embed\'s control changes its simulation');
  assert.match(await page.evaluate(() => location.hash), /policy=random.*controls=policy,staleness_ms/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('an embed with no options shows the policy control and the percentile chart, and plays', async () => {
  const { page, errors } = await embed({ width: 1280, height: 800 });
  await page.waitForFunction(() => window.lbsim.simTime() > 500);
  const ids = await page.evaluate(() => [...document.querySelectorAll('canvas, .control select, .control input')].map((e) => e.id));
  assert.deepEqual(ids, ['topology', 'policy', 'chart-percentiles']);
  const height = await page.evaluate(() => document.querySelector('[data-lbsim]').getBoundingClientRect().height);
  assert.equal(height, 800, 'fills the window, as a bare link for a slide');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('autoplay=0 starts paused until play is pressed', async () => {
  const { page, errors } = await embed({ hash: 'autoplay=0&charts=none&controls=none' });
  await page.waitForTimeout(800);
  assert.equal(await simTime(page), 0, 'time moved before play');
  assert.equal(await page.textContent('#play'), 'Play');
  assert.ok((await drawnFraction(page, 'topology')) > 0.01, 'the paused topology is drawn');
  assert.equal(await page.evaluate(() => document.querySelectorAll('canvas').length), 1);
  await page.click('#play');
  await page.waitForFunction(() => window.lbsim.simTime() > 300);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('bad view options give notices naming each entry and what it allows; the embed still runs', async () => {
  // Fields with no control (their help is the command line's alone, so not
  // in this module) are named as fully as those with one.
  const fields = 'servers=0&eject_max_for_ms=soon&retry_budget_of=all';
  const hash = `controls=policy,colour&charts=pie&height=5&autoplay=maybe&theme=blue&caption=Fine&${fields}`;
  const { page, errors } = await embed({ hash });
  await noticeSays(page, [
    '“controls=policy,colour”: expected "all", "none", or a comma-separated list of speed, policy',
    'using policy instead',
    '“charts=pie”: expected "all", "none", or a comma-separated list of percentiles, waits, clients, load',
    '“height=5”: expected "auto" or whole pixels from 240 to 4000',
    '“autoplay=maybe”: expected 0 (start paused) or 1 (start playing)',
    '“theme=blue”: expected one of auto, light, dark',
    '“servers=0”: expected a whole number from 1 to 10000; using 10 instead.',
    '“eject_max_for_ms=soon”: expected "none" or milliseconds from 0.001 to 3600000; using none instead.',
    '“retry_budget_of=all”: expected one of active, requests; using active instead.',
  ]);
  assert.equal(await page.textContent('.caption'), 'Fine', 'good options still apply');
  await page.waitForFunction(() => window.lbsim.simTime() > 500);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('every control of an embed is described by its field\'s help, as `lbsim fields` gives it', async () => {
  const { page, errors } = await embed({ hash: 'policy=power-of-d&controls=all&autoplay=0', width: 1280, height: 800 });
  const described = await page.evaluate(() =>
    [...document.querySelectorAll('.control:not(.unused) :is(select, input)[aria-describedby]')].map((input) => {
      const ids = input.getAttribute('aria-describedby').split(' ');
      return [input.id, ids.map((id) => document.getElementById(id)?.textContent ?? '').at(-1)];
    }));
  // `lbsim fields` gives three lines a field: its name (then " (live)" if
  // it may change during a run), its help, its default and range.
  const lines = execFileSync(CLI, ['fields'], { encoding: 'utf8' }).split('\n');
  const helpOf = (key) => lines[lines.findIndex((line) => line.split(' ')[0] === key) + 1]?.trim();
  assert.ok(described.length >= 20, `only ${described.length} described controls`);
  // The speed is no field, and the policy is described by the policy chosen.
  for (const [key, help] of described.filter(([key]) => key !== 'speed' && key !== 'policy')) {
    assert.equal(help, helpOf(key), `#${key}'s description`);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('an embed in sight draws in the page\'s first frame, and its link mirrors its settings once drawn', async () => {
  const { page, errors } = await embed({ hash: 'autoplay=0&servers=0', width: 680, height: 400 });
  await page.waitForTimeout(500);
  const [pageFrames, viewFrames] = await page.evaluate(() => [window.lbsim.pageFrameCosts().length, window.lbsim.frameCosts().length]);
  assert.ok(viewFrames > 0, 'the embed drew');
  // A frame in which the view rested (waiting for the observer to say it
  // is in sight) would be one frame of the page more than of the view.
  assert.equal(viewFrames, pageFrames, 'every frame of the page drew the embed, its first too');
  // Written after the first picture, the link still holds the value used.
  const entries = await hashEntries(page);
  assert.notEqual(entries.get('servers'), '0', `the link says the servers used: ${await page.evaluate(() => location.hash)}`);
  assert.equal(entries.get('autoplay'), '0');
  assert.deepEqual(errors, []);
  await page.context().close();
});

// The keys embed a post pastes (screenshots.test's), in its 640 × 400
// frame: once the eleventh server has joined, every row still names its
// server and writes its queue's length, and the strip's p99 keeps its name
// on one line. Its picture was 171 px, rows of 12 px with neither, and
// "p99 queue time" took three lines beside the buttons. Where the picture
// takes the room the controls had, they fold into More and the view says
// which height shows them: in that frame they show, rows still named.
test('the keys embed in a 640 × 400 frame names every row, or says which height would', async () => {
  const hash = 'policy=ring&membership=10s:add&controls=policy,virtual_nodes&charts=percentiles,keys&say=moved';
  const open = async (height) => {
    const opened = await embed({ hash, width: 640, height });
    await opened.page.waitForFunction(() => window.lbsim.simTime() > 11_000, null, { timeout: 60_000 });
    await opened.page.waitForTimeout(800);
    const seen = await opened.page.evaluate(() => {
      const name = document.querySelector('.readouts .readout:not(.off-line) .name');
      const lines = name ? name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).fontSize) : 0;
      return {
        rows: JSON.parse(window.lbsim.views()[0].servers()).map((s) => s.name !== null),
        picture: Math.round(document.querySelector('.topology').getBoundingClientRect().height),
        nameLines: Math.round(lines * 10) / 10,
        folded: document.querySelector('.lbsim-view').classList.contains('fold-controls'),
        note: document.querySelector('.size-note:not([hidden])')?.textContent ?? '',
      };
    });
    return { ...opened, seen };
  };
  const { page, errors, seen } = await open(400);
  await screenshot(page, 'embed-keys-640x400');
  assert.equal(seen.rows.length, 11, JSON.stringify(seen));
  assert.ok(seen.rows.every(Boolean), `rows without their names in a ${seen.picture} px picture: ${JSON.stringify(seen)}`);
  // A line of 0.75rem type is about 1.2 of its size high; two are 2.4.
  assert.ok(seen.nameLines < 1.8, `the strip's name takes ${seen.nameLines} of its type's height`);
  assert.deepEqual(errors, []);
  await page.context().close();
  if (!seen.folded) return;
  const needed = Number(seen.note.match(/about ([\d,]+) px tall/)?.[1].replace(',', ''));
  assert.ok(needed > 400, `the controls folded, and the view says: "${seen.note}"`);
  const tall = await open(needed);
  assert.ok(!tall.seen.folded && tall.seen.rows.every(Boolean), `at ${needed} px: ${JSON.stringify(tall.seen)}`);
  await screenshot(tall.page, `embed-keys-640x${needed}`);
  assert.deepEqual(tall.errors, []);
  await tall.page.context().close();
});
