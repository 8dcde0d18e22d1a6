// What a classroom needs from the lab: compare mode (A and B side by side
// on common random numbers, the ratios with their intervals, the same
// numbers as `lbsim compare`), the presenter view, stepping one event at a
// time with a log, theory beside measurement, and figures to take away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { browser, server, useBrowser, openApp, hashEntries, summary, CLI, artifact } from './lib.mjs';

useBrowser();


test('compare mode loads from its link: A and B advance together, with the ratios, as lbsim compare gives them', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=power-of-d&versus=policy:random' });
  assert.equal(await page.textContent('.pane-b .pane-title'), 'B: random');
  assert.equal(await page.inputValue('#versus'), 'policy:random');
  await page.waitForFunction(() => window.lbsim.simTime() > 1500);
  await page.click('#play');
  const [a, b] = await page.evaluate(() => [window.lbsim.views()[0].simTime(), JSON.parse(window.lbsim.views()[0].versusSummary()).simulated_s * 1000]);
  assert.ok(Math.abs(a - b) < 1e-6, `A at ${a} ms, B at ${b} ms`);
  assert.ok(Number(await page.textContent('#versus-sim-time')) > 1, 'B shows its own time');

  await page.evaluate(() => window.lbsim.views()[0].advance(20_000 - window.lbsim.views()[0].simTime()));
  // The sentence is rewritten within a second of wall time.
  await page.waitForFunction(() => window.lbsim.views()[0].readback().startsWith('Over 20 simulated seconds'));
  const words = await page.evaluate(() => window.lbsim.views()[0].readback());
  const native = JSON.parse(execFileSync(CLI, ['compare', 'default', '--set', 'policy=power-of-d', '--vs', 'policy=random', '--duration', '20', '--json'], { encoding: 'utf8' }));
  const browserA = await summary(page);
  const browserB = JSON.parse(await page.evaluate(() => window.lbsim.views()[0].versusSummary()));
  assert.equal(browserA.trace_hash, native.a.summary.trace_hash);
  assert.equal(browserB.trace_hash, native.b.summary.trace_hash);
  const { estimate, half_width: half } = native.comparison.queue_p99;
  const expected = `B (random) over A (power of two choices): p99 queue time ${estimate.toFixed(2)}× (${Math.max(0, estimate - half).toFixed(2)}–${(estimate + half).toFixed(2)})`;
  assert.ok(words.includes(expected), `${words}\nexpected ${expected}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("compare mode's B pane, its spike over, reads its whole run as A's does, where it kept its last second", async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'demand=spike&clients=50&versus=policy:power-of-d' });
  await page.evaluate(() => window.lbsim.views()[0].advance(60_000));
  await page.waitForFunction(() => document.querySelector('#play').textContent === 'Replay', null, { timeout: 30_000 });
  await page.waitForTimeout(1_200);
  const panes = await page.evaluate(() => ['', 'versus-'].map((pane) => ({
    text: document.getElementById(`${pane}throughput`).textContent,
    span: document.getElementById(`${pane}p99`).closest('.readout').querySelector('.window').textContent,
  })));
  const b = JSON.parse(await page.evaluate(() => window.lbsim.views()[0].versusSummary()));
  assert.deepEqual(panes.map((p) => p.span), ['(whole run)', '(whole run)'], 'each pane says its figures are its whole run\'s');
  assert.equal(panes[1].text, String(Math.round(b.throughput)), "B's whole run's throughput, not its last second's");
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the compare form sets what B changes, in the link; a bad entry is refused with a notice', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=power-of-d' });
  assert.equal(await page.locator('.pane-b').count(), 0);
  await page.fill('#versus', 'policy:random;load:0.95');
  await page.click('#compare');
  await page.waitForSelector('.pane-b');
  assert.equal((await hashEntries(page)).get('versus'), 'policy%3Arandom%3Bload%3A0.95');
  assert.equal(await page.textContent('.pane-b .pane-title'), 'B: policy = random, load = 0.95');
  await page.fill('#versus', 'policy:fastest');
  await page.click('#compare');
  assert.match(await page.textContent('#notice-list'), /“versus=policy:fastest”: expected settings as key:value pairs/);
  await page.fill('#versus', '');
  await page.click('#compare');
  await page.waitForFunction(() => !document.querySelector('.pane-b'));
  assert.equal((await hashEntries(page)).has('versus'), false);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the presenter view: p toggles it, h shows the settings, the link keeps it', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1920, height: 1080 });
  await page.keyboard.press('p');
  assert.equal(await page.evaluate(() => document.querySelector('[data-lbsim]').classList.contains('presenter')), true);
  const masthead = () => page.evaluate(() => document.querySelector('.masthead').getBoundingClientRect().height);
  assert.ok((await masthead()) <= 1, 'the page text gives way');
  assert.equal(await page.isVisible('#controls'), false, 'settings folded away');
  assert.equal((await hashEntries(page)).get('presenter'), '1');
  await page.keyboard.press('h');
  assert.equal(await page.isVisible('#controls'), true, 'h shows the settings');
  const big = await page.evaluate(() => parseFloat(getComputedStyle(document.getElementById('p99')).fontSize));
  assert.ok(big >= 40, `the p99 figure is ${big} px`);
  await page.reload();
  await page.waitForFunction(() => window.lbsim !== undefined);
  assert.equal(await page.evaluate(() => document.querySelector('[data-lbsim]').classList.contains('presenter')), true, 'the link restores it');
  await page.click('#present');
  assert.ok((await masthead()) > 100, 'the page text is back');
  assert.equal((await hashEntries(page)).has('presenter'), false);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('step advances exactly one event and the log tells it in words', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.waitForFunction(() => window.lbsim.simTime() > 500);
  await page.click('#play');
  const before = (await summary(page)).events;
  await page.click('#step');
  assert.equal((await summary(page)).events, before + 1);
  assert.equal(await page.isVisible('#event-log'), true);
  const first = await page.textContent('#event-log li');
  assert.match(first, /^\d+\.\d{3} s.*(request|session)/);
  await page.keyboard.press('s');
  assert.equal((await summary(page)).events, before + 2);
  assert.equal(await page.locator('#event-log li').count(), 2);
  await page.keyboard.press('r');
  assert.equal(await page.isVisible('#event-log'), false, 'reset empties the log');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('theory beside measurement in the browser: M/M/3, M/M/100 and the supermarket model', async () => {
  const cases = [
    ['servers=1&slots=3&service_mean_ms=250&load=0.8333333333333334&queue_timeout_ms=none&session_length=1&handshake_round_trips=0&client_delay_ms=0', 3_600_000, /gives a mean queue wait of 351 ms/],
    ['servers=1&slots=100&service_mean_ms=1000&load=0.9&queue_timeout_ms=none&session_length=1&handshake_round_trips=0&client_delay_ms=0', 3_600_000, /gives a mean queue wait of 21\.7 ms/],
    ['servers=100&slots=1&service_mean_ms=10&load=0.9&policy=power-of-d&choices=2&queue_timeout_ms=none&session_length=1&handshake_round_trips=0&client_delay_ms=0', 600_000, /gives a mean queue wait of 16\.1 ms/],
  ];
  for (const [settings, ms, theory] of cases) {
    const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash: `${settings}&say=theory&autoplay=0` });
    await page.evaluate((ms) => window.lbsim.advance(ms), ms);
    await page.waitForFunction(() => window.lbsim.views()[0].readback().startsWith('Theory'));
    const words = await page.evaluate(() => window.lbsim.views()[0].readback());
    assert.match(words, theory);
    const s = await summary(page);
    const { estimate, half_width: half } = s.confidence.queue_ms.mean;
    console.log(`${words}\n  measured ${estimate.toFixed(2)} ± ${half.toFixed(2)} ms, theory ${s.theory.mean_wait_ms.toFixed(2)} ms`);
    assert.ok(words.includes(`measured ${estimate >= 100 ? estimate.toFixed(0) : estimate.toFixed(1)} ms ±`), words);
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('figures to take away: the series and servers as CSV, each canvas as PNG, named after their origin', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${server.url}#policy=power-of-d&seed=9`);
  await page.waitForFunction(() => window.lbsim?.simTime() > 2000);
  await page.click('#take-away summary');
  const take = async (id) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#${id}`)]);
    return { name: download.suggestedFilename(), body: await readFile(await download.path()) };
  };
  const series = await take('download-series');
  assert.match(series.name, /^power-of-d_seed-9_lbsim-[\d.]+_series\.csv$/);
  const rows = series.body.toString().trim().split('\n');
  assert.match(rows[0], /^time_s,queue_p50_ms,queue_p90_ms,queue_p99_ms,latency_p50_ms/);
  assert.ok(rows.length > 5);
  const servers = await take('download-servers');
  assert.equal(servers.body.toString().split('\n')[0], 'server,completed,mean_busy_slots,mean_queued');
  for (const part of ['topology', 'percentiles', 'clients', 'load']) {
    const png = await take(`download-${part}`);
    assert.match(png.name, new RegExp(`_${part}\\.png$`));
    assert.deepEqual([...png.body.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
    assert.ok(png.body.length > 2000, `${part}.png is ${png.body.length} bytes`);
  }
  await context.close();
});

test('the presets are the scenarios/ files the command line runs, and load as it runs them', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'speed=2' });
  const offered = await page.evaluate(() => [...document.querySelectorAll('#preset option')].map((o) => o.value).filter(Boolean));
  // Each preset's name is indented under its system's heading, its description further.
  const listed = execFileSync(CLI, ['presets'], { encoding: 'utf8' }).split('\n')
    .filter((line) => /^  \S/.test(line)).map((line) => line.trim());
  assert.deepEqual(offered.sort(), listed.sort());
  await page.selectOption('#preset', 'p2c-cheating');
  assert.equal((await hashEntries(page)).get('policy'), 'power-of-d');
  assert.equal((await hashEntries(page)).get('speed'), '2', 'the speed stays');
  assert.match(await page.textContent('#preset-help'), /^Power of two choices reading every server's true load/);
  await page.click('#play');
  await page.evaluate(() => window.lbsim.advance(5000 - window.lbsim.simTime()));
  const native = JSON.parse(execFileSync(CLI, ['run', 'p2c-cheating', '--duration', '5', '--json'], { encoding: 'utf8' }));
  assert.equal((await summary(page)).trace_hash, native.summary.trace_hash);
  await page.selectOption('#policy', 'random');
  assert.equal(await page.inputValue('#preset'), 'continuous-random', 'the menu names the preset the settings are');
  await page.selectOption('#policy', 'round-robin');
  assert.equal(await page.inputValue('#preset'), '', 'settings of no preset are your own');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the percentile chart switches between queue time, latency and session time, and the link keeps the choice', async () => {
  const { page, errors } = await openApp(browser, server.url);
  await page.waitForFunction(() => window.lbsim.simTime() > 3000);
  const pixels = () => page.evaluate(() => document.getElementById('chart-percentiles').toDataURL());
  const title = () => page.textContent('#chart-percentiles').then(() => page.textContent('.chart-title'));
  assert.match(await title(), /^Queue time: p50, p90 and p99 over a rolling one-second window$/);
  await page.click('#play');
  await page.waitForTimeout(300);
  const queue = await pixels();
  for (const [value, words] of [['latency', 'Latency'], ['session', 'Session time']]) {
    await page.selectOption('#metric', value);
    assert.equal((await hashEntries(page)).get('metric'), value);
    assert.equal(await title(), `${words}: p50, p90 and p99 over a rolling one-second window`);
    await page.waitForTimeout(400);
    assert.notEqual(await pixels(), queue, `${value}: the chart did not change`);
  }
  await page.reload();
  await page.waitForFunction(() => window.lbsim !== undefined);
  assert.equal(await page.inputValue('#metric'), 'session', 'the link restores the choice');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the capacity panel refuses a spike\'s demand, which ignores the load it searches over, as the command line does', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'demand=spike&servers=4&clients=8' });
  await page.fill('#capacity-slo', '20');
  await page.click('#capacity-run');
  assert.match(await page.textContent('#capacity-status'), /^Not searched: capacity searches over load, which demand=spike ignores .*; use demand=continuous\.$/);
  assert.deepEqual(JSON.parse(await page.evaluate(() => window.lbsim.views()[0].capacity())), []);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the capacity panel finds two policies\' capacities in slices between frames, with progress, and draws their curves', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'servers=4&clients=8&duration_s=10' });
  await page.fill('#capacity-slo', '20');
  await page.fill('#capacity-policies', 'random,power-of-d');
  const before = await page.evaluate(() => document.getElementById('capacity-chart').toDataURL());
  await page.click('#capacity-run');
  await page.waitForFunction(() => document.getElementById('capacity-status').textContent.startsWith('Searching'));
  const partway = await page.evaluate(() => Number(document.getElementById('capacity-progress').getAttribute('value')));
  await page.waitForFunction(() => document.getElementById('capacity-status').textContent.startsWith('Capacity'), null, { timeout: 60_000 });
  assert.ok(partway < 1, `progress started at ${partway}`);
  const outcomes = JSON.parse(await page.evaluate(() => window.lbsim.views()[0].capacity()));
  assert.deepEqual(outcomes.map((o) => o.policy), ['random', 'power-of-d']);
  const [random, p2c] = outcomes.map((o) => o.capacity);
  assert.ok(random > 0.05 && p2c > random, `random ${random}, power of two ${p2c}`);
  // The same search as the command line's, on the same settings.
  const native = JSON.parse(execFileSync(CLI, ['capacity', 'default', '--set', 'servers=4', '--set', 'clients=8', '--duration', '10', '--slo', 'p99=20ms', '--set', 'policy=random,power-of-d', '--json'], { encoding: 'utf8' }));
  assert.deepEqual(outcomes.map((o) => o.capacity), native.outcomes.map((o) => o.capacity));
  assert.match(await page.textContent('#capacity-status'), /^Capacity at p99 queue time ≤ 20 ms: random 0\.\d\d, power-of-d 0\.\d\d\.$/);
  const drawn = await page.evaluate(() => document.getElementById('capacity-chart').toDataURL());
  assert.notEqual(drawn, before, 'the curves were drawn');
  await page.screenshot({ path: artifact('capacity.png') });
  // The presenter view's larger type reaches the curves already drawn.
  await page.click('#present');
  const presented = await page.evaluate(() => document.getElementById('capacity-chart').toDataURL());
  assert.notEqual(presented, drawn, 'the curves were drawn again for the presenter view');
  await page.click('#present');
  assert.deepEqual(errors, []);
  await page.context().close();
});
