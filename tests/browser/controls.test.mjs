// The controls a chapter's prose names (its link's `controls=`) are under
// its picture, never folded into "More": at 1440 × 900 and 1280 × 720
// each one is visible, outside the drawer, and a real click at its centre
// reaches it with nothing opened first. An embed whose link names two
// controls shows both in a 680 × 400 post frame, and the embed code the
// lab copies for a post gives a height that shows them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, artifact, reach } from './lib.mjs';

useBrowser();

/** The keys of the controls the view `root` names (its link's `controls=`). */
function namedControls(page, root) {
  return page.evaluate((rootSelector) => {
    const view = document.querySelector(rootSelector);
    const settings = new URLSearchParams(view.dataset.lbsimSettings ?? location.hash.slice(1));
    const prefix = view.id ? `${view.id}-` : '';
    return (settings.get('controls') ?? 'policy').split(',').map((key) => ({ key, id: prefix + key }));
  }, root);
}

/** Clicks each named control at its centre as a person would and checks it took the focus. */
async function clickEach(page, root, where) {
  const problems = [];
  for (const { key, id } of await namedControls(page, root)) {
    const name = `${where} ${key}`;
    const control = await reach(page, id);
    if (control.problem) {
      problems.push(`${name}: ${control.problem}`);
      continue;
    }
    if (!control.visible) problems.push(`${name} is not visible`);
    if (control.inDrawer) problems.push(`${name} is folded into More`);
    if (!control.hits) problems.push(`${name}: a click at its centre reaches something else`);
    if (control.size[0] < 24 || control.size[1] < 24) problems.push(`${name} is ${control.size.join(' × ')} px, under 24 × 24`);
    await page.mouse.click(control.x, control.y);
    const focused = await page.evaluate(() => document.activeElement?.id);
    await page.keyboard.press('Escape');
    // A control that restarts the run changes the sentences, and the view
    // fits itself again: the next control is reached once it has.
    await page.waitForTimeout(500);
    if (focused !== id) problems.push(`${name}: the click focused "${focused}"`);
  }
  return problems;
}

for (const [width, height] of [[1440, 900], [1280, 720]]) {
  test(`at ${width} × ${height} every chapter's named controls are under its picture and take a click`, async () => {
    const { page, errors } = await openApp(browser, server.url + 'explain.html', { width, height });
    const ids = await page.evaluate(() => [...document.querySelectorAll('.chapter [data-lbsim="embed"]')].map((v) => v.id));
    assert.ok(ids.length >= 19, `the explainer has ${ids.length} simulations`);
    const problems = [];
    for (const id of ids) {
      await page.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'start', behavior: 'instant' }), id);
      await page.waitForTimeout(700);
      problems.push(...await clickEach(page, `#${id}`, id));
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

/** Opens embed.html at `hash` in a `width` × `height` window, once it runs and has fitted. */
async function openEmbed(hash, width, height) {
  const opened = await openApp(browser, server.url + 'embed.html', { hash, width, height });
  await opened.page.waitForFunction(() => window.lbsim.simTime() > 500);
  await opened.page.waitForTimeout(600);
  return opened;
}

for (const [width, height] of [[680, 400], [800, 600]]) {
  test(`an embed naming policy and load shows both in a ${width} × ${height} frame`, async () => {
    const { page, errors } = await openEmbed('controls=policy,load&charts=percentiles,clients', width, height);
    assert.deepEqual(await clickEach(page, '.lbsim-view', 'embed'), []);
    assert.equal(await page.locator('.size-note').isVisible(), false, 'no note asks for a taller frame');
    await page.screenshot({ path: artifact(`controls-embed-${width}x${height}.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test('the embed code for a post gives three controls a frame that shows them', async () => {
  // 548 px: EmbedSize::Post's height for three controls and one chart
  // (src/ui/embed_size.rs), two lines of controls in a 680 px column.
  const { page, errors } = await openEmbed('controls=policy,load,clients&charts=percentiles&height=548', 680, 548);
  assert.deepEqual(await clickEach(page, '.lbsim-view', 'post'), []);
  assert.equal(await page.locator('.size-note').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Ten controls whose moves leave the picture's size alone: a click at the
// centre of servers or clients changes the picture's rows, and the view
// then needs another height. (A link naming a field that is not a control
// is refused whole, which left only the policy to check.)
const TEN_CONTROLS = 'policy,load,speed,choices,staleness_ms,queue_timeout_ms,retry_budget,retry_backoff_ms,hedge_after_ms,eject_after';
// At 680 × 400 six controls fit once the charts fold behind their button;
// ten do not. The height named follows the view as it runs (it named 541
// px where 573 were needed when it was measured only as the controls
// folded). With a refused entry, whose notice stands above the picture,
// it named 1,371 px, and there the controls folded again and asked 1,438
// (the view's overflow was counted, some 10 px short of its layout's).
// Then it named 1,394 px where 1,396 showed them: squeezed to no height,
// the picture's 2 px of border lay over the row after it, outside the
// overflow measured, and the picture's share multiplied the miss.
for (const [what, refused] of [['', ''], [', beside a refused entry,', '&policy=nope']]) {
  test(`an embed too short for its controls${what} folds them and says the height that shows them`, async () => {
    const { page, errors } = await openEmbed(`controls=${TEN_CONTROLS}&charts=percentiles,clients${refused}`, 680, 400);
    await page.waitForTimeout(1500);
    assert.equal(await page.locator('.notice').isVisible(), Boolean(refused), 'a notice shows where an entry is refused');
    const note = await page.locator('.size-note').textContent();
    const needed = Number(note.match(/about (\d+) px tall to show its controls; this one is 400 px\.$/)?.[1]);
    assert.ok(needed > 400, `the note says: ${note}`);
    await page.setViewportSize({ width: 680, height: needed });
    await page.waitForFunction(() => !document.querySelector('.lbsim-embed').classList.contains('fold-controls'), null, { timeout: 5_000 });
    await page.waitForTimeout(800);
    assert.equal((await namedControls(page, '.lbsim-view')).length, 10, 'the view shows the ten controls its link names');
    assert.deepEqual(await clickEach(page, '.lbsim-view', `embed at the ${needed} px asked`), []);
    assert.equal(await page.locator('.size-note').isVisible(), false);
    await page.screenshot({ path: artifact(`controls-embed-asked-${needed}${refused && '-refused'}.png`) });
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

// The clients slider steps through 1, 2, 5, 10, 20, 50, … and names the
// decades under it: a reader saw "from 500, three presses reach 50" and a
// click move 20 to 200 as uneven steps, with no scale to say why. A press
// of an arrow moves one rung; a click at a decade's name sets that decade,
// the same rungs by keyboard and pointer.
for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`at ${width} × ${height} chapter 2's clients slider names its decades, and keys and clicks take the same rungs`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}explain.html`, { width, height });
    await page.evaluate(() => document.getElementById('sim-spike').scrollIntoView({ block: 'start', behavior: 'instant' }));
    const slider = page.locator('#sim-spike-clients');
    await slider.scrollIntoViewIfNeeded();
    const names = page.locator('.control:has(#sim-spike-clients) .ladder-scale span');
    assert.deepEqual(await names.allTextContents(), ['1', '10', '100', '1,000', '10,000']);
    await slider.focus();
    const read = () => slider.getAttribute('aria-valuetext');
    assert.equal(await read(), '200');
    const seen = [];
    for (let i = 0; i < 3; i += 1) {
      await page.keyboard.press('ArrowLeft');
      seen.push(await read());
    }
    assert.deepEqual(seen, ['100', '50', '20'], 'three presses: one decade down, in rungs of ×2 and ×2.5');
    // The focus ring, shown, passes behind the decades' names: it struck
    // through "1,000" and "10,000" (reader 15). Each name reads the same
    // focused and not.
    assert.ok(await slider.evaluate((e) => e.matches(':focus-visible') && getComputedStyle(e).outlineStyle !== 'none'), 'a ring while focused');
    // Each name's box less its edge pixels, which antialiasing shares.
    const inset = ({ x, y, width, height }) => ({ x: Math.ceil(x) + 1, y: Math.ceil(y) + 1, width: Math.floor(width) - 3, height: Math.floor(height) - 3 });
    const clips = await Promise.all([0, 1, 2, 3, 4].map(async (index) => inset(await names.nth(index).boundingBox())));
    const focused = [];
    for (const clip of clips) focused.push(await page.screenshot({ clip }));
    await slider.evaluate((e) => e.blur());
    for (const [index, clip] of clips.entries()) {
      assert.ok(focused[index].equals(await page.screenshot({ clip })), `the focus ring crosses "${await names.nth(index).textContent()}"`);
    }
    const track = await slider.boundingBox();
    for (const [index, value] of [[1, '10'], [2, '100'], [3, '1,000']]) {
      const name = await names.nth(index).boundingBox();
      assert.ok(name.x >= track.x - 1 && name.x + name.width <= track.x + track.width + 1, `"${value}" lies under the slider`);
      await page.mouse.click(name.x + name.width / 2, track.y + track.height / 2);
      await page.waitForFunction(([value]) => document.getElementById('sim-spike-clients').getAttribute('aria-valuetext') === value, [value], { timeout: 5_000 });
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
