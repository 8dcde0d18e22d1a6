// The outline each view draws before the module arrives (www/outline.js):
// the scenario its settings describe, in the box the live view then takes
// (nothing moves), accessible; and, if the module cannot load, a note.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { browser, server, useBrowser } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

useBrowser();

/**
 * Opens `path` with the module's wasm held back until `release()` (or
 * refused, with `refuse`); resolves once the outline is drawn.
 */
async function openHeld(path, { width, height, colorScheme = 'light', refuse = false }) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme });
  const page = await context.newPage();
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/lbsim-web_bg.wasm', async (route) => (refuse ? route.abort() : (await held, route.continue())));
  await page.goto(server.url + path);
  await page.waitForSelector('[data-lbsim-outline]');
  return { page, release };
}

/** What the outline of the view at `selector` shows, and where its root is. */
const outlineOf = (page, selector) =>
  page.evaluate((selector) => {
    const root = document.querySelector(selector);
    const outline = root.querySelector('[data-lbsim-outline]');
    const { x, y, width, height } = root.getBoundingClientRect();
    return {
      clients: outline?.querySelectorAll('.outline-client').length,
      balancers: outline?.querySelectorAll('.outline-balancer').length,
      slots: outline?.querySelectorAll('.outline-slot').length,
      caption: outline?.querySelector('.caption')?.textContent,
      status: outline?.querySelector('.outline-status')?.textContent,
      box: [x, y, width, height].map(Math.round),
    };
  }, selector);

test("an embed's outline draws its scenario, in the box the live view then keeps", async () => {
  const { page, release } = await openHeld('embed.html#clients=6&balancers=2&servers=3&slots=4&caption=Three%20servers', { width: 680, height: 400 });
  const outline = await outlineOf(page, '[data-lbsim]');
  assert.deepEqual(
    { ...outline, box: undefined },
    { clients: 6, balancers: 2, slots: 12, caption: 'Three servers', status: 'Starting the simulation…', box: undefined },
  );
  release();
  await page.waitForFunction(() => window.lbsim !== undefined);
  const live = await outlineOf(page, '[data-lbsim]');
  assert.equal(live.status, undefined, 'the live view replaced the outline');
  assert.deepEqual(live.box, outline.box);
  await page.context().close();
});

test('a view with a twin outlines two pictures, as it will draw them', async () => {
  const { page } = await openHeld('embed.html#servers=3&slots=4&versus=policy:power-of-d', { width: 680, height: 400 });
  const pictures = await page.evaluate(() => [...document.querySelectorAll('[data-lbsim-outline] svg')]
    .map((svg) => svg.getBoundingClientRect()).map(({ top, width }) => ({ top: Math.round(top), width: Math.round(width) })));
  assert.equal(pictures.length, 2);
  assert.equal(pictures[0].top, pictures[1].top, 'side by side');
  assert.ok(pictures.every(({ width }) => width > 250), JSON.stringify(pictures));
  const outline = await outlineOf(page, '[data-lbsim]');
  assert.equal(outline.slots, 24, 'three servers of four slots in each');
  await page.context().close();
});

test("the explainer's first chapter: the outline takes the live view's box, with the default scenario's numbers filled in", async () => {
  const { page, release } = await openHeld('explain.html', { width: 1440, height: 900 });
  const outline = await outlineOf(page, '#sim-one-server');
  const below = await page.evaluate(() => document.querySelector('#one-server figure + p').getBoundingClientRect().top);
  assert.deepEqual([outline.clients, outline.slots], [20, 10], 'servers=1 of the default 10 slots, 20 clients');
  release();
  await page.waitForFunction(() => window.lbsim !== undefined);
  await page.waitForTimeout(300);
  assert.deepEqual((await outlineOf(page, '#sim-one-server')).box, outline.box);
  assert.equal(await page.evaluate(() => document.querySelector('#one-server figure + p').getBoundingClientRect().top), below);
  await page.context().close();
});

test('the outline passes axe-core, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, release } = await openHeld('embed.html#caption=Power%20of%20two', { width: 680, height: 400, colorScheme });
    await page.addScriptTag({ path: AXE });
    const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    assert.deepEqual(serious, [], colorScheme);
    release();
    await page.context().close();
  }
});

test('if the module cannot load, the outline stays and says so', async () => {
  const { page } = await openHeld('embed.html', { width: 680, height: 400, refuse: true });
  await page.waitForFunction(() => document.querySelector('[data-lbsim-outline].failed'));
  assert.equal(
    (await outlineOf(page, '[data-lbsim]')).status,
    'The simulation could not start: this browser may not run WebAssembly, or a file it needs was blocked. Reloading the page may help.',
  );
  await page.context().close();
});

// The prose a chapter holds back for its verdict is hidden until a view
// reveals it (chapter 3's "Its queue stays short." stood there before the
// question); with no view to come, it shows.
test("without a view to reveal it, a chapter's held-back prose shows: the module refused, or no JavaScript", async () => {
  const shown = (page) => page.evaluate(() => [...document.querySelectorAll('#continuous [data-reveal]')].map((p) => p.getClientRects().length > 0));
  const { page } = await openHeld('explain.html', { width: 1440, height: 900, refuse: true });
  await page.waitForFunction(() => document.querySelector('[data-lbsim-outline].failed'));
  const refused = await shown(page);
  assert.ok(refused.length > 0 && refused.every(Boolean), `module refused: ${refused}`);
  await page.context().close();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(`${server.url}explain.html`);
  const off = await shown(plain);
  assert.ok(off.length > 0 && off.every(Boolean), `no JavaScript: ${off}`);
  await context.close();
});
