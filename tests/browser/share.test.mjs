// The lab's sharing tools: "Copy embed code" gives an <iframe> snippet that
// reproduces the lab's state exactly, and "New seed" draws a seed from the
// browser's cryptographic generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, hashEntries, summary } from './lib.mjs';

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
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html#[^"]+" .*height="640".*><\/iframe>$/);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet, 'the snippet is on the clipboard');
  const src = await page.evaluate((html) => {
    const frame = new DOMParser().parseFromString(html, 'text/html').querySelector('iframe');
    return frame.getAttribute('src');
  }, snippet);
  const entries = new Map(new URL(src).hash.slice(1).split('&').map((entry) => entry.split('=')));
  for (const key of ['seed', 'servers', 'slots', 'queue_timeout_ms', 'duration_s', 'warmup_s']) {
    assert.ok(entries.has(key), `the snippet lists ${key}`);
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
