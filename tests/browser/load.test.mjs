// How a page loads: the module is fetched at once, from the page's head,
// and only once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, server, browser, serveDist, DIST } from './lib.mjs';

useBrowser();

/** Each request for the module's files while `path` loads: its file and who asked for it. */
async function moduleRequests(path) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const devtools = await context.newCDPSession(page);
  await devtools.send('Network.enable');
  const requests = [];
  devtools.on('Network.requestWillBeSent', ({ request, initiator }) => {
    const file = new URL(request.url).pathname.slice(1);
    if (file.startsWith('lbsim-web')) requests.push(`${file} by ${initiator.type}`);
  });
  await page.goto(server.url + path);
  await page.waitForLoadState('networkidle');
  await context.close();
  return requests.sort();
}

test("every page preloads the module's script and wasm from its head, and fetches each once", async () => {
  for (const path of ['embed.html', 'explain.html', 'index.html', 'bins.html']) {
    assert.deepEqual(await moduleRequests(path), ['lbsim-web.js by parser', 'lbsim-web_bg.wasm by parser'], path);
  }
});

/** The ids of the explainer's views that are mounted (hold a picture). */
const mountedViews = (page) =>
  page.evaluate(() => [...document.querySelectorAll('[data-lbsim]')].filter((root) => root.querySelector('canvas.topology')).map((root) => root.id));

test("the explainer mounts a chapter's view as it nears the viewport, not all at load", async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url + 'explain.html');
  await page.waitForFunction(() => document.querySelector('#sim-one-server canvas.topology'));
  await page.waitForTimeout(500);
  const atLoad = await mountedViews(page);
  const all = await page.evaluate(() => document.querySelectorAll('.chapter [data-lbsim]').length);
  assert.ok(atLoad.length <= 3 && all >= 19, `${atLoad.length} of ${all} views mounted at load: ${atLoad}`);
  await page.evaluate(() => document.getElementById('retries').scrollIntoView());
  await page.waitForFunction(() => document.querySelector('#sim-retries canvas.topology'));
  const scrolled = await mountedViews(page);
  assert.ok(scrolled.length <= atLoad.length + 4, `after a jump to retries, ${scrolled} are mounted`);
  await context.close();
});

test('the build as published exports the script API and no test hook', async () => {
  const published = await serveDist({ dir: DIST });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(published.url + 'embed.html');
  await page.waitForFunction(() => window.wasmBindings !== undefined && document.querySelector('canvas.topology'));
  const exported = await page.evaluate(() => ({
    hooks: typeof window.lbsim,
    bindings: Object.keys(window.wasmBindings).filter((name) => name !== 'default' && !name.startsWith('initSync')).sort(),
  }));
  assert.deepEqual(exported, { hooks: 'undefined', bindings: ['SimulationView', 'destroy', 'mount', 'run', 'start'] });
  await context.close();
  await published.close();
});
