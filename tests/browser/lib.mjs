// Shared by the browser tests and benchmarks: a static server for dist/
// (and for the demo and test pages kept here), headless Chromium through
// playwright-core, and page helpers.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { existsSync, mkdirSync } from 'node:fs';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { compress, ENCODINGS } from '../../scripts/precompress.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The build as published (trunk build --release --offline): no test hooks. */
export const DIST = join(ROOT, 'dist');
/** The build the tests open, with the test hooks: `trunk build --release --offline --features test-hooks --dist dist-test` (scripts/browser-test.sh). */
export const TEST_DIST = join(ROOT, 'dist-test');
/** The demo and test pages (embeds.html, views.html), served beside dist/. */
export const PAGES = join(ROOT, 'tests', 'browser');
export const ARTIFACTS = join(ROOT, 'tests', 'browser', 'artifacts');
export const CLI = join(ROOT, 'target', 'release', 'lbsim');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
};

/**
 * Serves a build (`dir`: the test build unless told) on 127.0.0.1 at a
 * free port, and the HTML pages of tests/browser/ at the same level, so
 * they load the built module as the lab does; resolves to { url, close }.
 * With `encoding` (`br` or `gzip`) every file goes compressed, as a host
 * serves it: its precompressed copy beside it when the build wrote one,
 * else compressed here alike.
 */
export async function serveDist({ encoding, dir = TEST_DIST } = {}) {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`${dir} is missing: build it first (scripts/browser-test.sh says how)`);
  }
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const name = path === '/' ? 'index.html' : path;
    const built = normalize(join(dir, name));
    const page = normalize(join(PAGES, name));
    if (!built.startsWith(dir) || !page.startsWith(PAGES)) {
      response.writeHead(403).end();
      return;
    }
    const file = existsSync(built) || extname(page) !== '.html' ? built : page;
    try {
      const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
      if (encoding) Object.assign(headers, { 'content-encoding': encoding, vary: 'accept-encoding' });
      const body = encoding ? await compressed(file, encoding) : await readFile(file);
      response.writeHead(200, headers);
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const compressedFiles = new Map();

/** `file` as `encoding` compresses it: the build's copy, else made once here. */
async function compressed(file, encoding) {
  const key = `${encoding} ${file}`;
  if (!compressedFiles.has(key)) {
    const copy = file + ENCODINGS[encoding];
    compressedFiles.set(key, existsSync(copy) ? await readFile(copy) : compress(await readFile(file), encoding));
  }
  return compressedFiles.get(key);
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-precise-memory-info',
  '--js-flags=--expose-gc',
];

/** Headless Chromium with a fresh profile (playwright makes a temp one). */
export function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/**
 * The page server and the browser a test file shares: `useBrowser()` at
 * the top of a file starts them before its first test and closes them
 * after its last. `server` and `browser` are live bindings, so a test
 * reads them as they are when it runs.
 */
export let server;
export let browser;
export function useBrowser() {
  before(async () => {
    server = await serveDist();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

/**
 * Opens the app at `hash` in a new page and waits for the test hooks;
 * `initScript` runs in the page before the app (a recorder of what the
 * canvases write). Returns { page, errors }: console errors and uncaught
 * exceptions seen.
 */
export async function openApp(browser, url, { hash = '', width = 1440, height = 1000, colorScheme = 'light', initScript = null } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, colorScheme });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url + (hash ? `#${hash}` : ''));
  await page.waitForFunction(() => window.lbsim !== undefined, null, { timeout: 30_000 });
  return { page, errors };
}

/**
 * How much of a canvas is drawn: the fraction of pixels that differ from
 * its most common colour (the background). `page` may also be a frame.
 */
export function drawnFraction(page, id) {
  return page.evaluate((id) => {
    const canvas = document.getElementById(id);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const counts = new Map();
    for (let i = 0; i < data.length; i += 4) {
      const key = (data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const background = Math.max(...counts.values());
    const total = data.length / 4;
    return total === 0 ? 0 : (total - background) / total;
  }, id);
}

/** Where a screenshot called `name` goes (in ARTIFACTS, made if missing), whatever the working directory. */
export function artifact(name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}

export async function screenshot(page, name) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Runs the native command line on `hash`'s settings; returns its JSON. */
export function nativeRun(hash) {
  if (!existsSync(CLI)) throw new Error('target/release/lbsim is missing: run `cargo build --release` first');
  const sets = hash.split('&').filter(Boolean).flatMap((entry) => ['--set', entry]);
  return JSON.parse(execFileSync(CLI, ['run', 'default', ...sets, '--json'], { encoding: 'utf8' }));
}

/** The current URL hash as a Map of key to value. */
export async function hashEntries(page) {
  const hash = await page.evaluate(() => location.hash.slice(1));
  return new Map(hash.split('&').filter(Boolean).map((entry) => entry.split('=')));
}

export const summary = async (page) => JSON.parse(await page.evaluate(() => window.lbsim.summary()));

/** Waits for the page's notice and checks that it says each of `fragments`. */
export async function noticeSays(page, fragments) {
  const notice = page.locator('#notice');
  await notice.waitFor({ state: 'visible' });
  const text = await notice.textContent();
  for (const fragment of fragments) assert.ok(text.includes(fragment), `notice lacks "${fragment}": ${text}`);
}

/**
 * The share of the topology's pixels along the line from (x, y), w long
 * (in CSS pixels), that are in the ink colour.
 */
export const inkAlong = (page, line) => page.evaluate(([x, y, w]) => {
  const canvas = document.getElementById('topology');
  const scale = canvas.width / canvas.clientWidth;
  const row = canvas.getContext('2d').getImageData(Math.round(x * scale), Math.round(y * scale), Math.round(w * scale), 1).data;
  const probe = document.createElement('span');
  probe.style.color = 'var(--ink)';
  document.querySelector('.lbsim-view').append(probe);
  const ink = getComputedStyle(probe).color.match(/\d+/g).map(Number);
  probe.remove();
  let inked = 0;
  for (let i = 0; i < row.length; i += 4) {
    if ([0, 1, 2].every((c) => Math.abs(row[i + c] - ink[c]) <= 40)) inked += 1;
  }
  return inked / (row.length / 4);
}, line);

/** Scrolls control `id` into sight as a reader would; says where it is and what a click at its centre meets. */
export function reach(page, id) {
  return page.evaluate(async (id) => {
    const control = document.getElementById(id);
    if (!control) return { problem: 'missing' };
    control.scrollIntoView({ block: 'center', behavior: 'instant' });
    for (let i = 0; i < 2; i += 1) await new Promise(requestAnimationFrame);
    const r = control.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    const hit = document.elementFromPoint(x, y);
    return {
      x,
      y,
      size: [Math.round(r.width), Math.round(r.height)],
      visible: control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }),
      inDrawer: Boolean(control.closest('.drawer')),
      hits: Boolean(hit && (control.contains(hit) || control.labels?.[0]?.contains(hit))),
    };
  }, id);
}

/**
 * Takes view `index` at once to `ms` simulated milliseconds (the hooks'
 * `advance`), if it is not there yet, once its opening (chapter 1's first
 * trip, at a walking pace) has been shown, and waits until it plays past
 * them: for a test that needs a run some seconds in and checks what a
 * reader sees there, not the pace (chapter 1 plays at a tenth of real
 * time, so that a reader sees its requests travel: three of its simulated
 * seconds would be thirty of the test's). A change of speed would start
 * such a chapter over; a jump keeps its run, as deterministic as played.
 * Jumped to before its first trip set out, the chapter would walk a trip
 * from there instead.
 */
export async function runTo(page, index, ms, { timeout = 60_000 } = {}) {
  await page.waitForFunction((i) => window.lbsim.views()[i].openingOver(), index, { timeout });
  await page.evaluate(([i, t]) => {
    const view = window.lbsim.views()[i];
    if (view.simTime() < t) view.advance(t - view.simTime());
  }, [index, ms]);
  await page.waitForFunction(([i, t]) => window.lbsim.views()[i].simTime() > t, [index, ms], { timeout });
}

/**
 * Skips the question of section `id` (or of the view mounted on `id`), if
 * it asks one still unanswered, by a click at its centre, as a reader does.
 * The section's view is mounted only as it nears the viewport
 * (src/web/waiting.rs), so this first waits for it to be built: asked at
 * once after a scroll, a loaded machine could find no question yet, skip
 * nothing, and leave the figure waiting at its question. A question
 * already answered (a second call) is left as it is.
 */
export async function skipQuestion(page, id) {
  const state = await page.waitForFunction((id) => {
    const named = document.getElementById(id);
    const root = named?.matches('[data-lbsim]') ? named : named?.querySelector('[data-lbsim]');
    if (!root) return 'none';
    if (root.querySelector('.layout') === null) return false;
    if (!root.classList.contains('asks') || root.querySelector('.question.answered')) return 'none';
    const skip = root.querySelector('.question .skip-guess');
    return skip !== null && skip.getClientRects().length > 0 ? 'skip' : false;
  }, id, { timeout: 30_000 });
  if (await state.jsonValue() === 'none') return;
  const skip = page.locator(`#${id} .question .skip-guess`);
  await skip.scrollIntoViewIfNeeded();
  const box = await skip.boundingBox();
  if (box) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Moves `slider` with the arrow `key` until it reads `text`, as a keyboard
 * user does; fails after `limit` presses rather than pressing on for ever
 * when the slider never reads `text` (a value written differently).
 */
export async function slideTo(page, slider, text, key, limit = 200) {
  await slider.focus();
  for (let presses = 0; (await slider.getAttribute('aria-valuetext')) !== text; presses++) {
    if (presses === limit) {
      const now = await slider.getAttribute('aria-valuetext');
      throw new Error(`the slider reads ${now} after ${limit} presses of ${key}, never ${text}`);
    }
    await page.keyboard.press(key);
  }
}

/** Records, on each canvas, the box of every text written since it was last cleared whole. */
export function recordLabels() {
  const { fillText, clearRect } = CanvasRenderingContext2D.prototype;
  CanvasRenderingContext2D.prototype.clearRect = function (x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) this.canvas.labels = [];
    return clearRect.call(this, x, y, w, h);
  };
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    const m = this.measureText(text);
    const t = this.getTransform();
    const css = this.canvas.clientWidth > 0 ? this.canvas.clientWidth / this.canvas.width : 1;
    const [left, top] = [t.a * (x - m.actualBoundingBoxLeft) + t.e, t.d * (y - m.actualBoundingBoxAscent) + t.f];
    const [right, bottom] = [t.a * (x + m.actualBoundingBoxRight) + t.e, t.d * (y + m.actualBoundingBoxDescent) + t.f];
    if (this.globalAlpha > 0 && String(text).trim() !== '') {
      (this.canvas.labels ??= []).push({ text: String(text), box: [left, top, right, bottom].map((v) => v * css) });
    }
    return fillText.call(this, text, x, y, ...rest);
  };
}
