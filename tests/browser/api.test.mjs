// The script API (tests/browser/api.html, which holds docs/script-api.md's example
// word for word): the example styles the view it mounts; mount a view on an
// element, drive it, read its summary, run a scenario headless; bad input
// raises an Error worded as the command line words it; a mounted view out of
// sight uses no simulated time; the example works on a page of another
// origin given the files and headers docs/embedding.md lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { browser, server, useBrowser, openApp, nativeRun, screenshot, CLI, DIST, ROOT, PAGES, drawnFraction } from './lib.mjs';

useBrowser();

async function openExample() {
  const opened = await openApp(browser, `${server.url}api.html`, { width: 1280, height: 800 });
  await opened.page.waitForFunction(() => window.view !== undefined);
  return opened;
}

/** The script API's example: the first HTML block of docs/script-api.md. */
function documentedExample() {
  const doc = readFileSync(join(ROOT, 'docs', 'script-api.md'), 'utf8');
  const block = doc.match(/```html\n([\s\S]*?)```/);
  assert.ok(block, 'docs/script-api.md has no HTML example');
  return block[1];
}

/** What the command line prints for a bad `--set`, without its name. */
function nativeError(entry) {
  try {
    execFileSync(CLI, ['run', 'default', '--set', entry], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    return error.stderr.trim().replace(/^lbsim: /, '');
  }
  throw new Error(`${entry} was accepted`);
}

test('api.html is the documented example word for word, and the view it mounts is styled by it', async () => {
  const example = documentedExample();
  assert.match(example, /<link rel="stylesheet" href="style.css">/);
  assert.ok(readFileSync(join(PAGES, 'api.html'), 'utf8').includes(example), 'api.html differs from docs/script-api.md');
  const { page, errors } = await openExample();
  const look = await page.evaluate(() => {
    const root = document.getElementById('sim');
    const lists = [...root.querySelectorAll('ul, ol')].filter((list) => list.checkVisibility());
    return {
      sheets: [...document.querySelectorAll('link[rel="stylesheet"]')].map((link) => link.getAttribute('href')),
      palette: getComputedStyle(root).getPropertyValue('--bg').trim(),
      lists: lists.length,
      bulleted: lists.filter((list) => getComputedStyle(list).listStyleType !== 'none').length,
      caption: root.querySelector('.caption')?.textContent,
      height: root.getBoundingClientRect().height,
      below: document.getElementById('figure').getBoundingClientRect().top - root.getBoundingClientRect().bottom,
    };
  });
  assert.deepEqual(look.sheets, ['style.css'], 'the only stylesheet is the example\'s own');
  assert.notEqual(look.palette, '', 'the view has the stylesheet\'s colours');
  assert.ok(look.lists > 0 && look.bulleted === 0, `${look.bulleted} of ${look.lists} lists in sight show bullets`);
  assert.equal(look.caption, 'Power of two at 95% load');
  assert.equal(look.height, 520, 'the view keeps the height its options give');
  assert.ok(look.below >= 0, 'the paragraph after the view lies below it');
  assert.match(await page.textContent('#figure'), /^Random, after 10 simulated seconds: p99 queue time \d+\.\d ms\.$/);
  await screenshot(page, 'api-example');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a mounted view plays, pauses, steps, resets, takes settings and gives its summary', async () => {
  const { page, errors } = await openExample();
  const state = () => page.evaluate(() => ({ time: window.view.simTime(), policy: window.view.summary().policy }));
  assert.deepEqual(await state(), { time: 0, policy: 'power-of-d' }, 'autoplay: false starts paused');
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#sim .control select, #sim .control input')].map((e) => e.id)),
    ['sim-policy', 'sim-load']);

  await page.evaluate(() => window.view.play());
  await page.waitForFunction(() => window.view.simTime() > 500);
  await page.evaluate(() => window.view.pause());
  const paused = (await state()).time;
  await page.waitForTimeout(300);
  assert.equal((await state()).time, paused, 'pause stops the clock');
  await page.evaluate(() => window.view.step());
  assert.ok((await state()).time > paused, 'step advances it');

  await page.evaluate(() => window.view.set('policy', 'random'));
  assert.equal((await state()).policy, 'random');
  assert.equal(await page.inputValue('#sim-policy'), 'random', 'the control shows what the script set');
  await page.evaluate(() => window.view.set('server_speeds', [1, 2]));
  await page.evaluate(() => window.view.reset());
  assert.equal((await state()).time, 0);
  await page.evaluate(() => window.view.advance(2000));
  const summary = await page.evaluate(() => window.view.summary());
  assert.equal(summary.simulated_s, 2);
  assert.ok(summary.counts.completed > 0 && typeof summary.queue_ms.p99 === 'number', 'a plain object');
  assert.ok((await drawnFraction(page, 'sim-topology')) > 0.01);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('run() gives the same numbers as the command line for the same seed', async () => {
  const { page } = await openExample();
  const browserSummary = await page.evaluate(() => window.api.run({ policy: 'random', servers: 20, load: 0.95, seed: 7 }, 10));
  const native = nativeRun('policy=random&servers=20&load=0.95&seed=7&duration_s=10');
  const figures = (s) => [s.trace_hash, s.events, s.counts.completed, s.queue_ms.p99, s.latency_ms.mean];
  assert.deepEqual(figures(browserSummary), figures(native.summary ?? native));
  await page.context().close();
});

test('bad input raises an Error naming the field and what it allows, as the command line says it', async () => {
  const { page } = await openExample();
  const thrown = (code) => page.evaluate((code) => {
    try {
      new Function('api', 'view', code)(window.api, window.view);
      return null;
    } catch (error) {
      return { isError: error instanceof Error, message: error.message };
    }
  }, code);
  const cases = [
    ["api.run({ servers: 0 })", 'servers=0'],
    ["api.run({ polcy: 'random' })", 'polcy=random'],
    ["api.run({ policy: 'fastest' })", 'policy=fastest'],
    ["view.set('load', 7)", 'load=7'],
    ["api.mount(document.body, { queue_timeout_ms: -1 })", 'queue_timeout_ms=-1'],
  ];
  for (const [code, entry] of cases) {
    const error = await thrown(code);
    assert.ok(error?.isError, `${code} did not throw an Error`);
    assert.equal(error.message, nativeError(entry), code);
  }
  const option = await thrown("api.mount(document.body, {}, { charts: ['pie'] })");
  assert.match(option.message, /field `charts`: `pie` is not allowed; expected "all", "none", or a comma-separated list of percentiles, waits, clients, load/);
  const unknown = await thrown("api.mount(document.body, {}, { colour: 'red' })");
  assert.match(unknown.message, /option `colour` is not known; expected one of controls, charts/);
  const twice = await thrown("api.mount(document.getElementById('sim'), {})");
  assert.match(twice.message, /already mounted/);
  const value = await thrown("view.set('servers', { many: true })");
  assert.match(value.message, /^field `servers`: `many:1` is not allowed; expected a whole number/);
  await page.context().close();
});

test('a view mounted out of sight uses no simulated time until scrolled into view', async () => {
  const { page, errors } = await openExample();
  await page.evaluate(() => { window.low = window.api.mount(document.getElementById('low'), { policy: 'random' }); });
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.low.simTime()), 0);
  await page.evaluate(() => document.getElementById('low').scrollIntoView());
  await page.waitForFunction(() => window.low.simTime() > 500);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => !window.lbsim.views()[1].onScreen());
  const away = await page.evaluate(() => window.low.simTime());
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.low.simTime()), away, 'it ran while out of sight');
  await page.evaluate(() => document.getElementById('low').scrollIntoView());
  await page.waitForFunction((away) => window.low.simTime() > away + 300, away);
  const resumed = await page.evaluate(() => window.low.simTime());
  assert.ok(resumed < away + 3000, 'it jumped ahead on resuming');

  await page.evaluate(() => window.low.destroy());
  assert.equal(await page.evaluate(() => document.getElementById('low').childElementCount), 0);
  assert.equal(await page.evaluate(() => window.lbsim.views().length), 1);
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** Serves `files` ({ name: { body, type } }) alone on a port of its own, each with `headers`. */
async function serveOnly(files, headers) {
  const host = createServer((request, response) => {
    const file = files[new URL(request.url, 'http://localhost').pathname.slice(1)];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type, ...headers }).end(file.body);
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${host.address().port}/`, close: () => new Promise((resolve) => host.close(resolve)) };
}

test('the example works on a page of another origin, given only the files and headers docs/embedding.md lists', async () => {
  const hosting = readFileSync(join(ROOT, 'docs', 'embedding.md'), 'utf8');
  const row = hosting.split('\n').find((line) => line.startsWith('| the script API'));
  const names = [...row.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  const types = Object.fromEntries([...hosting.matchAll(/`([\w.-]+)` as `Content-Type: ([^`]+)`/g)].map((m) => [m[1], m[2]]));
  assert.deepEqual(names.filter((name) => !types[name]), [], 'a file without its type');
  const files = Object.fromEntries(names.map((name) => [name, { body: readFileSync(join(DIST, name)), type: types[name] }]));

  const visit = async (headers) => {
    const cdn = await serveOnly(files, headers);
    const example = documentedExample()
      .replace("from './lbsim-web.js'", `from '${cdn.url}lbsim-web.js'`)
      .replace('href="style.css"', `href="${cdn.url}style.css"`);
    const post = `<!DOCTYPE html>\n<meta charset="utf-8">\n<title>A post</title>\n<link rel="icon" href="data:,">\n${example}`;
    const blog = await serveOnly({ '': { body: post, type: 'text/html; charset=utf-8' } }, {});
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(blog.url);
    // Until the view is mounted, or the browser has said why it cannot be.
    const mounted = () => page.evaluate(() => window.view !== undefined);
    for (let waited = 0; waited < 20_000 && errors.length === 0 && !(await mounted()); waited += 100) {
      await page.waitForTimeout(100);
    }
    const palette = await page.evaluate(() => getComputedStyle(document.getElementById('sim')).getPropertyValue('--bg').trim());
    const result = { mounted: await mounted(), palette, errors };
    await context.close();
    await Promise.all([cdn.close(), blog.close()]);
    return result;
  };

  const shared = await visit({ 'access-control-allow-origin': '*', 'cache-control': 'no-cache' });
  assert.deepEqual(shared.errors, []);
  assert.ok(shared.mounted && shared.palette !== '', 'the view is mounted and styled');
  const closed = await visit({});
  assert.ok(!closed.mounted, 'without Access-Control-Allow-Origin the module loads anyway');
  assert.ok(closed.errors.some((error) => /CORS/.test(error)), closed.errors.join('\n'));
  assert.notEqual(closed.palette, '', 'the stylesheet needs no CORS header');
});
