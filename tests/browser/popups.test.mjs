// The Key opened from a view's row of buttons opens clear of that row, so
// Pause, Step and Reset stay in reach; a chart opened while paused (folded
// behind its button) is drawn. Clicks land at the
// centre of what a reader would click.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, skipQuestion } from './lib.mjs';

useBrowser();

const click = async (page, locator) => {
  const box = await locator.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
};

/** Which of the view's buttons the element at each one's centre is. */
const reachable = (page, id) => page.evaluate((id) => [...document.querySelectorAll(`#${id} .transport button`)]
  .filter((b) => b.offsetParent !== null)
  .map((b) => {
    const r = b.getBoundingClientRect();
    return [b.textContent, document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === b];
  }), id);

// Chapter 4 folds its key into a Key button at 1440 × 900 (chapter 3,
// where this was first seen, now folds its chart instead, beside its
// question).
test("chapter 4's Key opens clear of Pause, Step and Reset", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  await page.evaluate(() => document.getElementById('sim-repick').scrollIntoView({ block: 'center' }));
  await skipQuestion(page, 'repick');
  // The view's layout settles once it runs (its figures row may fold into
  // the buttons' row then, moving the Key): click it after a second of it.
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-repick'));
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 1000, index, { timeout: 20_000 });
  const key = page.locator('#sim-repick .key-toggle');
  await key.waitFor({ state: 'visible', timeout: 10_000 });
  await click(page, key);
  const legend = page.locator('#sim-repick .stage > .legend');
  await legend.waitFor({ state: 'visible' });
  const [shown, transport] = await Promise.all([legend.boundingBox(), page.locator('#sim-repick .transport').boundingBox()]);
  assert.ok(shown.y + shown.height <= transport.y, `the key ends at ${shown.y + shown.height}, the buttons start at ${transport.y}`);
  for (const [name, reached] of await reachable(page, 'sim-repick')) assert.ok(reached, `${name} is covered`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("chapter 5's chart opened while paused is drawn", async () => {
  const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width: 1440, height: 900 });
  await page.evaluate(() => document.getElementById('sim-power-of-two').scrollIntoView({ block: 'center' }));
  await skipQuestion(page, 'power-of-two');
  const index = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].findIndex((e) => e.id === 'sim-power-of-two'));
  await page.waitForFunction((i) => window.lbsim.views()[i].simTime() > 3000, index, { timeout: 20_000 });
  await click(page, page.locator('#sim-power-of-two .transport .play'));
  const toggle = page.locator('#sim-power-of-two .chart-toggle');
  await toggle.waitFor({ state: 'visible' });
  await click(page, toggle);
  const charts = page.locator('#sim-power-of-two .charts');
  await charts.waitFor({ state: 'visible' });
  await page.waitForTimeout(300);
  const inked = await page.evaluate(() => {
    const canvas = [...document.querySelectorAll('#sim-power-of-two .charts canvas')].find((c) => c.offsetParent !== null);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 3; i < data.length; i += 4) count += data[i] !== 0;
    return count;
  });
  assert.ok(inked > 1000, `the chart opened while paused has ${inked} drawn pixels`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/**
 * Opens each pop-up of section `id`'s view shown at the moment (Chart,
 * Key, More) by a click at its button's centre, the button scrolled to the
 * window's middle, and says where each opened that is not wholly inside
 * the window; it closes each again.
 */
async function popupsOutside(page, id) {
  const problems = [];
  for (const [toggle, popup] of [['.chart-toggle', '.charts'], ['.key-toggle', '.stage > .legend'], ['.more-toggle', '.drawer']]) {
    const button = page.locator(`#${id} ${toggle}`);
    if (!(await button.isVisible())) continue;
    await button.evaluate((b) => b.scrollIntoView({ block: 'center', behavior: 'instant' }));
    // The view fits itself again as it runs (a longer sentence may fold
    // its chart or its legend): a button it took away offers nothing.
    await page.waitForTimeout(300);
    if (!(await button.isVisible())) continue;
    await click(page, button);
    await page.waitForTimeout(100);
    const { box, window } = await page.evaluate(([id, popup]) => {
      const r = document.querySelector(`#${id} ${popup}`).getBoundingClientRect();
      return { box: [r.left, r.top, r.right, r.bottom].map(Math.round), window: [innerWidth, innerHeight] };
    }, [id, popup]);
    if (box[0] < 0 || box[1] < 0 || box[2] > window[0] || box[3] > window[1]) {
      problems.push(`${id}'s ${toggle.slice(1)} opens at ${box.join(', ')} (left, top, right, bottom) in a ${window.join(' × ')} window`);
    }
    await button.evaluate((b) => b.click());
  }
  return problems;
}

for (const [width, height] of [[390, 844], [1280, 720]]) {
  test(`at ${width} × ${height} every pop-up of chapters 1 to 6 and of an embed opens wholly inside the window`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
    const problems = [];
    for (const id of ['one-server', 'spike', 'continuous', 'repick', 'power-of-two', 'stale']) {
      await page.evaluate((id) => document.getElementById(`sim-${id}`).scrollIntoView({ block: 'start' }), id);
      await skipQuestion(page, id);
      await page.waitForTimeout(1500);
      problems.push(...await popupsOutside(page, `sim-${id}`));
    }
    const embed = await openApp(browser, `${server.url}embed.html`, { width, height, hash: 'controls=policy,load,servers,clients,slots&charts=percentiles,clients' });
    await embed.page.waitForFunction(() => window.lbsim.simTime() > 500);
    await embed.page.evaluate(() => { document.querySelector('.lbsim-view').id = 'embed'; });
    problems.push(...await popupsOutside(embed.page, 'embed'));
    assert.deepEqual(problems, []);
    assert.deepEqual([...errors, ...embed.errors], []);
    await page.context().close();
    await embed.page.context().close();
  });
}
