// The lab's sharing tools: "Copy embed code" gives an <iframe> snippet that
// reproduces the lab's state exactly, and "New seed" draws a seed from the
// browser's cryptographic generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, hashEntries, summary, artifact } from './lib.mjs';
import { layoutProblems } from './usable.mjs';

useBrowser();

const SIMULATED_MS = 5000;

test('the embed code loads an embed that gives the same trace hash after the same simulated time', async () => {
  const hash = 'policy=p2c-piggyback&servers=20&clients=50&balancers=3&staleness_ms=20&load=0.8&service=lognormal&seed=42&speed=2';
  const { page, errors } = await openApp(browser, server.url, { hash });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.click('#play');
  await page.click('#reset');
  await page.evaluate((ms) => window.lbsim.advance(ms), SIMULATED_MS);
  const lab = await summary(page);

  await page.click('#copy-embed');
  const box = page.locator('#embed-code');
  await box.waitFor({ state: 'visible' });
  const snippet = await box.inputValue();
  // Sized for a post: the lab's four charts and one control.
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html#[^"]+" .*height="468".*><\/iframe>$/);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet, 'the snippet is on the clipboard');
  const src = await page.evaluate((html) => {
    const frame = new DOMParser().parseFromString(html, 'text/html').querySelector('iframe');
    return frame.getAttribute('src');
  }, snippet);
  const entries = new Map(new URL(src).hash.slice(1).split('&').map((entry) => entry.split('=')));
  // Only what differs from the defaults: a post's snippet stays short.
  for (const key of ['seed', 'servers', 'clients', 'balancers', 'staleness_ms', 'load', 'service', 'policy']) {
    assert.ok(entries.has(key), `the snippet lists ${key}`);
  }
  for (const key of ['slots', 'queue_timeout_ms', 'duration_s', 'warmup_s']) {
    assert.ok(!entries.has(key), `the snippet leaves out ${key}, at its default`);
  }
  assert.equal(entries.get('autoplay'), '0', 'a paused lab gives a paused embed');

  const embed = await page.context().newPage();
  embed.on('pageerror', (error) => errors.push(String(error)));
  await embed.goto(src);
  await embed.waitForFunction(() => window.lbsim !== undefined);
  assert.equal(await embed.evaluate(() => window.lbsim.simTime()), 0);
  await embed.evaluate((ms) => window.lbsim.advance(ms), SIMULATED_MS);
  const embedded = await summary(embed);
  assert.ok(lab.events > 1000, 'the lab simulated something');
  assert.equal(embedded.trace_hash, lab.trace_hash);
  assert.equal(embedded.simulated_s, lab.simulated_s);
  assert.deepEqual(embedded, lab, 'the whole summary agrees');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the embed code for a post lays out cleanly in a 680 px column, and for a slide asks for 16:9 and the presenter view', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=power-of-d' });
  await page.click('#copy-embed');
  const read = async () => {
    const snippet = await page.inputValue('#embed-code');
    const frame = await page.evaluate((html) => {
      const element = new DOMParser().parseFromString(html, 'text/html').querySelector('iframe');
      return { src: element.getAttribute('src'), height: Number(element.getAttribute('height')) };
    }, snippet);
    return { ...frame, entries: new Map(new URL(frame.src).hash.slice(1).split('&').map((e) => e.split('='))) };
  };
  const post = await read();
  assert.equal(post.entries.get('height'), String(post.height), 'the embed is told the height its frame has');
  const column = await browser.newContext({ viewport: { width: 680, height: post.height }, deviceScaleFactor: 1 });
  const embed = await column.newPage();
  embed.on('pageerror', (error) => errors.push(String(error)));
  await embed.goto(post.src);
  await embed.waitForFunction(() => window.lbsim?.simTime() > 1000);
  await embed.waitForTimeout(1500);
  assert.deepEqual(await layoutProblems(embed), []);
  const scrolls = await embed.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  assert.ok(scrolls <= 0, `the post's embed is ${scrolls} px taller than its frame`);
  await embed.screenshot({ path: artifact('share-post-680.png') });
  await column.close();

  await page.selectOption('#embed-size', 'slide');
  const slide = await read();
  assert.equal(slide.height, 720);
  assert.equal(slide.entries.get('presenter'), '1');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('"New seed" draws a seed in range, shows it, and puts it in the URL and the simulation', async () => {
  const { page, errors } = await openApp(browser, server.url);
  const seeds = [];
  for (let draw = 0; draw < 2; draw++) {
    await page.click('#new-seed');
    const shown = await page.inputValue('#seed');
    assert.match(shown, /^\d+$/);
    const seed = Number(shown);
    assert.ok(seed >= 0 && seed <= Number.MAX_SAFE_INTEGER, `seed ${seed} out of range`);
    assert.equal((await hashEntries(page)).get('seed'), shown, 'the URL holds the seed');
    assert.equal((await summary(page)).seed, seed, 'the simulation runs on the seed');
    seeds.push(seed);
  }
  assert.ok(!seeds.includes(1), `a new seed differs from the default: ${seeds}`);
  assert.notEqual(seeds[0], seeds[1], 'each press draws anew');
  assert.deepEqual(errors, []);
  await page.context().close();
});

// An embed asks the height that names each of its rows (up to 16), where
// Copy embed code's sizes count none. Measured, they need not: the most
// rows named (16) ask 266 px of picture, and a post's frame (680 × 408)
// gives it 282 px, a wide post's (1000 × 600) 389 px. In the frame the
// code names, every row is named and nothing folds.
for (const size of ['post', 'wide-post']) {
  for (const [servers, charts] of [[16, 'percentiles'], [16, 'all']]) {
    test(`the embed code for a ${size} of ${servers} servers and charts=${charts} gives the height that names every row, its controls unfolded`, async () => {
      const { page, errors } = await openApp(browser, server.url, { hash: `policy=power-of-d&servers=${servers}&charts=${charts}` });
      await page.click('#copy-embed');
      await page.selectOption('#embed-size', size);
      const snippet = await page.inputValue('#embed-code');
      const frame = await page.evaluate((html) => {
        const element = new DOMParser().parseFromString(html, 'text/html').querySelector('iframe');
        return { src: element.getAttribute('src'), height: Number(element.getAttribute('height')), width: Number(element.getAttribute('width')) };
      }, snippet);
      const width = size === 'post' ? 680 : 1000;
      const column = await browser.newContext({ viewport: { width, height: frame.height }, deviceScaleFactor: 1 });
      const embed = await column.newPage();
      embed.on('pageerror', (error) => errors.push(String(error)));
      await embed.goto(frame.src);
      await embed.waitForFunction(() => window.lbsim?.simTime() > 1000);
      await embed.waitForTimeout(1000);
      const seen = await embed.evaluate(() => ({
        rows: JSON.parse(window.lbsim.views()[0].servers()).map((s) => s.name !== null),
        picture: Math.round(document.querySelector('.topology').getBoundingClientRect().height),
        folded: document.querySelector('.lbsim-view').classList.contains('fold-controls'),
        note: document.querySelector('.size-note:not([hidden])')?.textContent ?? '',
      }));
      console.log(`${size}, ${servers} servers, charts=${charts}: ${width} × ${frame.height}, picture ${seen.picture} px`);
      await embed.screenshot({ path: artifact(`share-${size}-${servers}-servers-${charts}-${width}x${frame.height}.png`) });
      assert.equal(seen.rows.length, servers);
      assert.ok(seen.rows.every(Boolean) && !seen.folded, `at ${width} × ${frame.height}: ${JSON.stringify(seen)}`);
      assert.deepEqual(await layoutProblems(embed), []);
      await column.close();
      assert.deepEqual(errors, []);
      await page.context().close();
    });
  }
}
