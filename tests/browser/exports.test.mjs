// For platforms without iframes: a view taken away as a poster (one PNG of
// its picture and charts under its sentence, the sentence also in the
// file's text chunk) and as a short WebM clip, both named after the view
// and its seed. Checked from an embed's drawer and from the lab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { join } from 'node:path';
import { ARTIFACTS, browser, server, useBrowser } from './lib.mjs';

useBrowser();

/** The PNG's tEXt chunks as { keyword: text }, each chunk's CRC checked. */
function textChunks(png) {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  const texts = {};
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const body = png.subarray(at + 8, at + 8 + length);
    assert.equal(png.readUInt32BE(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)), `${type}'s CRC`);
    if (type === 'tEXt') {
      const zero = body.indexOf(0);
      texts[body.subarray(0, zero).toString('latin1')] = body.subarray(zero + 1).toString('latin1');
    }
    at += 12 + length;
  }
  return texts;
}

async function openWithDownloads(path, width, height) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(server.url + path);
  await page.waitForFunction(() => window.lbsim?.simTime() > 3000, null, { timeout: 30_000 });
  return { page, errors };
}

const take = async (page, id, timeout = 30_000) => {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout }), page.click(`#${id}`)]);
  return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
};

test("an embed's poster holds its picture, charts and sentence, named after the view and seed", async () => {
  const { page, errors } = await openWithDownloads(
    'embed.html#policy=power-of-d&versus=policy:random&charts=percentiles&say=versus&seed=7', 800, 600);
  await page.click('#play');
  await page.click('#more-toggle');
  const sentence = (await page.textContent('.readback')).trim();
  assert.ok(sentence.length > 20, `the sentence: "${sentence}"`);
  const poster = await take(page, 'download-poster');
  assert.match(poster.name, /^power-of-d_seed-7_lbsim-[\d.]+_poster\.png$/);
  const texts = textChunks(poster.body);
  assert.ok(texts.Description?.includes(sentence.slice(0, 60)), `the poster's description: ${texts.Description}`);
  assert.ok(poster.body.length > 10_000, `the poster is ${poster.body.length} bytes`);
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(join(ARTIFACTS, 'export-poster.png'), poster.body);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a clip records a few seconds of the running view as WebM, and the button says how long is left', async () => {
  const { page, errors } = await openWithDownloads('#policy=power-of-d&seed=5', 1440, 900);
  await page.click('#take-away summary');
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    (async () => {
      await page.click('#download-clip');
      await page.waitForFunction(() => document.getElementById('download-clip').textContent.startsWith('Recording'));
    })(),
  ]);
  const clip = await readFile(await download.path());
  assert.match(download.suggestedFilename(), /^power-of-d_seed-5_lbsim-[\d.]+_clip\.webm$/);
  assert.deepEqual([...clip.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3], 'an EBML (WebM) header');
  assert.ok(clip.includes(Buffer.from('webm')), 'the EBML document type is webm');
  assert.ok(clip.length > 20_000, `the clip is ${clip.length} bytes`);
  // The download may start while the button still says "Saving the
  // clip…" (a full run met it so): once saved, it offers a clip again.
  await page.waitForFunction(() => /^Clip/.test(document.getElementById('download-clip').textContent), null, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("a clip draws the view's pictures at their own pixels, so their text is as sharp as on the page", async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${server.url}#policy=power-of-d&seed=5`);
  await page.waitForFunction(() => window.lbsim?.simTime() > 3000, null, { timeout: 30_000 });
  await page.click('#take-away summary');
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.click('#download-clip'),
  ]);
  const clip = await readFile(await download.path());
  const topology = await page.evaluate(() => document.getElementById('topology').width);
  const [width, height] = await page.evaluate(async (base64) => {
    const video = document.createElement('video');
    video.src = URL.createObjectURL(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'video/webm' }));
    await new Promise((resolve, reject) => { video.onloadedmetadata = resolve; video.onerror = reject; });
    return [video.videoWidth, video.videoHeight];
  }, clip.toString('base64'));
  // At twice the density the topology is 2 × its CSS width in pixels; the
  // clip was 1,200 px wide whatever the density, shrinking it (or, at one,
  // stretching it) and smearing its labels.
  assert.ok(width >= topology + 2 * 2 * 24, `a clip ${width} × ${height} px holds the topology's ${topology} px one to one`);
  await context.close();
});

test('a clip whose encoder gives no frame saves no file and says so on its button', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  // An encoder that hands over the WebM header and never a frame, as
  // Chromium's did on a busy machine.
  await page.addInitScript(() => {
    MediaRecorder.prototype.start = function start() {
      this.state_ = 'recording';
      setTimeout(() => this.dispatchEvent(new BlobEvent('dataavailable', { data: new Blob([new Uint8Array(110)]) })), 100);
    };
    Object.defineProperty(MediaRecorder.prototype, 'state', { get() { return this.state_ ?? 'inactive'; } });
    MediaRecorder.prototype.stop = function stop() {
      this.state_ = 'inactive';
      setTimeout(() => this.dispatchEvent(new Event('stop')), 10);
    };
  });
  await page.goto(`${server.url}#policy=power-of-d&seed=5`);
  await page.waitForFunction(() => window.lbsim?.simTime() > 1000, null, { timeout: 30_000 });
  await page.click('#take-away summary');
  let downloads = 0;
  page.on('download', () => { downloads += 1; });
  await page.click('#download-clip');
  await page.waitForFunction(() => /Saving/.test(document.getElementById('download-clip').textContent), null, { timeout: 20_000 });
  await page.waitForFunction(() => /^No clip: the browser encoded no frame/.test(document.getElementById('download-clip').textContent),
    null, { timeout: 40_000 });
  assert.equal(downloads, 0, 'no file of a header alone');
  await context.close();
});

/** The PNG `body`, decoded in `page`: its size and the share of its pixels
 * that differ from its top-left corner's (the chart's background). */
const pictureOf = (page, body) => page.evaluate(async (base64) => {
  const image = new Image();
  image.src = `data:image/png;base64,${base64}`;
  await image.decode();
  const canvas = new OffscreenCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  let drawn = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) drawn += 1;
  }
  return { width: image.width, height: image.height, drawn: drawn / (data.length / 4) };
}, body.toString('base64'));

test("an embed's charts folded into tabs each give a drawn PNG, the one whose tab was never shown too", async () => {
  const { page, errors } = await openWithDownloads('embed.html#charts=percentiles,clients&seed=3', 680, 400);
  assert.ok(await page.evaluate(() => document.querySelector('.lbsim-view').classList.contains('fold-charts')),
    'at 680 × 400 the two charts are tabs');
  const shown = await page.evaluate(() => {
    const canvas = document.getElementById('chart-percentiles');
    return { width: canvas.clientWidth, height: canvas.clientHeight, hidden: document.getElementById('chart-clients').clientWidth };
  });
  assert.equal(shown.hidden, 0, "the client-experience chart's tab is not shown");
  await page.click('#more-toggle');
  for (const chart of ['clients', 'percentiles']) {
    const picture = await take(page, `download-${chart}`);
    assert.match(picture.name, new RegExp(`^random_seed-3_lbsim-[\\d.]+_${chart}\\.png$`));
    const { width, height, drawn } = await pictureOf(page, picture.body);
    assert.ok(width >= shown.width && height >= shown.height,
      `${chart}: ${width} × ${height}, the chart shown is ${shown.width} × ${shown.height}`);
    assert.ok(drawn > 0.02, `${chart}: ${(100 * drawn).toFixed(1)}% of its pixels are drawn`);
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(join(ARTIFACTS, `export-tab-${chart}.png`), picture.body);
  }
  assert.equal(await page.evaluate(() => document.getElementById('chart-clients').clientWidth), 0,
    'taking its picture leaves the tab as it was');
  assert.deepEqual(errors, []);
  await page.context().close();
});
