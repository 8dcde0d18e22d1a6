// How a page loads: the module is fetched at once, from the page's head,
// and only once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useBrowser, server, browser, serveDist, DIST } from './lib.mjs';

useBrowser();

/** Each request for a page module's files while `path` loads (the trace worker's aside): its file and who asked for it. */
async function moduleRequests(path) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const devtools = await context.newCDPSession(page);
  await devtools.send('Network.enable');
  const requests = [];
  devtools.on('Network.requestWillBeSent', ({ request, initiator }) => {
    const file = new URL(request.url).pathname.slice(1);
    if (/^lbsim-(web|lab)/.test(file)) requests.push(`${file} by ${initiator.type}`);
  });
  await page.goto(server.url + path);
  await page.waitForLoadState('networkidle');
  await context.close();
  return requests.sort();
}

/** The module each page loads: the lab's for the lab, the one without the lab's tools for the others. */
const MODULES = { 'embed.html': 'lbsim-web', 'explain.html': 'lbsim-web', 'bins.html': 'lbsim-web', 'index.html': 'lbsim-lab' };

test("every page preloads its module's script and wasm from its head, fetches each once, and no other module", async () => {
  for (const [path, module] of Object.entries(MODULES)) {
    assert.deepEqual(await moduleRequests(path), [`${module}.js by parser`, `${module}_bg.wasm by parser`], path);
  }
});

test('lbsim-web, the module without the lab, refuses a lab view with a message naming the lab\'s module', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const html = `<!DOCTYPE html><html lang="en"><title>a lab on lbsim-web</title><main data-lbsim="lab"></main>
    <script type="module">import init from './lbsim-web.js';
    window.started = init({ module_or_path: './lbsim-web_bg.wasm' }).then(() => 'started', (error) => String(error));</script></html>`;
  await page.route('**/lab-on-web.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(server.url + 'lab-on-web.html');
  await page.waitForFunction(() => window.started !== undefined);
  assert.equal(
    await page.evaluate(() => window.started),
    'data-lbsim="lab": lbsim-web.js holds embeds and bins only (data-lbsim="embed" or "bins"); load lbsim-lab.js for the lab',
  );
  await context.close();
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

test('both modules as published export the script API and no test hook', async () => {
  const published = await serveDist({ dir: DIST });
  for (const path of ['embed.html', 'index.html']) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(published.url + path);
    await page.waitForFunction(() => window.wasmBindings !== undefined && document.querySelector('canvas.topology'));
    const exported = await page.evaluate(() => ({
      hooks: typeof window.lbsim,
      bindings: Object.keys(window.wasmBindings).filter((name) => name !== 'default' && !name.startsWith('initSync')).sort(),
    }));
    assert.deepEqual(exported, { hooks: 'undefined', bindings: ['SimulationView', 'destroy', 'mount', 'run', 'start'] }, path);
    await context.close();
  }
  await published.close();
});

test("the embeds' module as published leaves out the text only the lab or the command line shows", async () => {
  const holds = async (module, text) => (await readFile(join(DIST, `${module}_bg.wasm`))).includes(text);
  // A preset's comments: the lab's preset menu describes each preset.
  const description = 'M/M/3 exactly';
  // The help of a field with no control, which only `lbsim fields` prints.
  const uncontrolled = "Envoy's success_rate_minimum_hosts";
  // The help of a field with a control, which describes the control.
  const controlled = 'requests one server works on at once';
  assert.deepEqual(
    { description: await holds('lbsim-web', description), uncontrolled: await holds('lbsim-web', uncontrolled), controlled: await holds('lbsim-web', controlled) },
    { description: false, uncontrolled: false, controlled: true },
  );
  assert.ok(await holds('lbsim-lab', description), "the lab's module describes its presets");
});
