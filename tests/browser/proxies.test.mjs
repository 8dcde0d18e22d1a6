// The lab and the proxies' mechanisms (issue 42): the controls of the
// fields real proxies ship (panic threshold, health checks' thresholds and
// timeout, ejections' growth, slow start's window and aggression) each
// take a click at their centre and set their field, bad values in a link
// are named in a notice, a balancer's workers are off until there are
// balancers, the limits at a server and across a pool take a click and
// bite, and two presets run side by side on the same arrivals, each
// picture titled by its preset's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, hashEntries, noticeSays, artifact, nativeRun, summary } from './lib.mjs';

useBrowser();

/** Clicks at the centre of `locator`, as a person does. */
async function clickCentre(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const CONTROLS = [
  'healthy_panic_threshold', 'health_check_fall', 'health_check_rise', 'health_check_timeout_ms',
  'eject_max_for_ms', 'slow_start_window_ms', 'slow_start_aggression',
];

test('each proxy mechanism\'s control takes a click at its centre and sets its field', async () => {
  // Weighted least request reads weights, so slow start acts on it too.
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=weighted-least-request&health_check_ms=2000&autoplay=0', width: 1440, height: 900 });
  for (const key of CONTROLS) {
    const slider = page.locator(`#${key}`);
    const before = await slider.inputValue();
    await clickCentre(page, slider);
    assert.equal(await page.evaluate(() => document.activeElement?.id), key, `${key} takes the focus`);
    // A click at a slider's centre moves it to its middle rung.
    await page.waitForFunction(([key, before]) => document.getElementById(key).value !== before, [key, before]);
    await page.waitForTimeout(300);
    // The control writes thousands apart ("30,000 ms"); the link, the number.
    const shown = (await page.textContent(`#${key}-value`)).split(' ')[0].replaceAll(',', '');
    assert.equal(decodeURIComponent((await hashEntries(page)).get(key)), shown, `the link holds ${key} as shown`);
    assert.equal(await page.getAttribute(`#${key}`, 'aria-disabled'), 'false', `${key} acts under this policy`);
  }
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('slow start says it is not used by a policy that reads no weights', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=random&autoplay=0' });
  assert.equal(await page.getAttribute('#slow_start_window_ms', 'aria-disabled'), 'true');
  const help = await page.textContent('#slow_start_window_ms-help');
  assert.match(help, /^Not used by random: slow start ramps a joining server's weight, read only by “/);
  for (const reader of ['least time (NGINX)', 'weighted round-robin', "HAProxy's random(d), on its hash tree"]) {
    assert.ok(help.includes(`“${reader}”`), `${reader} in: ${help}`);
  }
  assert.ok(!help.includes('“random”'), help);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('bad proxy settings in a link are named in a notice, each with what is allowed', async () => {
  const hash = 'healthy_panic_threshold=150&health_check_fall=0&slow_start_window_ms=soon&versus=preset:nginx-plus&autoplay=0';
  const { page, errors } = await openApp(browser, server.url, { hash });
  await noticeSays(page, [
    '“healthy_panic_threshold=150”: expected a number from 0 to 100; using 0 instead.',
    '“health_check_fall=0”: expected a whole number from 1 to 100; using 1 instead.',
    '“slow_start_window_ms=soon”: expected "none" or milliseconds from 1 to 3600000; using none instead.',
    'preset:NAME takes one of spike-random,',
    'not `nginx-plus`; ignored.',
  ]);
  assert.equal(await page.textContent('#healthy_panic_threshold-value'), '0 %', 'the control shows the value used');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('two presets chosen in the lab run side by side on the same arrivals, each titled by its name', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1440, height: 900 });
  await clickCentre(page, page.locator('#preset'));
  await page.selectOption('#preset', 'envoy-least-request');
  await clickCentre(page, page.locator('#versus-preset'));
  await page.selectOption('#versus-preset', 'nginx');
  await page.waitForFunction(() => window.lbsim.versusSummary() != null, null, { timeout: 20_000 });
  assert.equal(decodeURIComponent((await hashEntries(page)).get('versus')), 'preset:nginx');
  assert.equal(await page.inputValue('#versus'), 'preset:nginx');
  assert.equal(await page.inputValue('#preset'), 'envoy-least-request');
  assert.deepEqual(await page.locator('.pane-title').allTextContents(), ['A: envoy-least-request', 'B: nginx']);
  await page.waitForFunction(() => window.lbsim.simTime() > 5000, null, { timeout: 30_000 });
  const [a, b] = await page.evaluate(() => [window.lbsim.summary(), window.lbsim.versusSummary()].map((s) => JSON.parse(s)));
  assert.equal(a.policy, 'least-request-with-replacement');
  assert.equal(b.policy, 'weighted-round-robin');
  assert.equal(a.seed, b.seed, 'the same arrivals: B runs from A\'s seed');
  await page.evaluate(() => document.querySelector('.pane-b').scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: artifact('proxies-compare-presets-1440x900.png') });
  // The menu's first entry stops comparing.
  await page.selectOption('#versus-preset', '');
  await page.waitForFunction(() => window.lbsim.versusSummary() == null, null, { timeout: 20_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a balancer\'s workers take a click at their centre and run as the command line runs them, and are off with no balancers', async () => {
  const settings = 'policy=least-request&balancers=2';
  const { page, errors } = await openApp(browser, server.url, { hash: `${settings}&autoplay=0`, width: 1440, height: 900 });
  const slider = page.locator('#workers_per_balancer');
  assert.equal(await slider.getAttribute('aria-disabled'), 'false');
  await clickCentre(page, slider);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'workers_per_balancer');
  await page.waitForFunction(() => /workers_per_balancer=/.test(location.hash));
  const workers = (await hashEntries(page)).get('workers_per_balancer');
  assert.equal(await page.textContent('#workers_per_balancer-value'), workers);
  assert.notEqual(workers, '1', 'a click at the centre moves the slider off its start');
  // The run starts over with the workers: each is a chooser of its own.
  await page.evaluate((ms) => window.lbsim.advance(ms), 2000 - await page.evaluate(() => window.lbsim.simTime()));
  const run = (workers) => nativeRun(`${settings}&workers_per_balancer=${workers}&duration_s=2&warmup_s=0`).summary.trace_hash;
  assert.equal((await summary(page)).trace_hash, run(workers), 'the lab runs the workers as `lbsim run` does');
  assert.notEqual(run(workers), run(1), 'the workers change the run');
  await page.context().close();

  const clients = await openApp(browser, server.url, { hash: 'balancers=0&autoplay=0', width: 1440, height: 900 });
  assert.equal(await clients.page.getAttribute('#workers_per_balancer', 'aria-disabled'), 'true');
  assert.equal(await clients.page.textContent('#workers_per_balancer-help'),
    'Not used with balancers = 0: workers are a balancer\'s, and clients that choose for themselves have none; add balancers first.');
  await clickCentre(clients.page, clients.page.locator('#workers_per_balancer'));
  await clients.page.waitForTimeout(300);
  // The edit is refused: the link and the control keep one worker.
  assert.equal((await hashEntries(clients.page)).get('workers_per_balancer') ?? '1', '1');
  assert.equal(await clients.page.textContent('#workers_per_balancer-value'), '1');
  assert.deepEqual([...errors, ...clients.errors], []);
  await clients.page.context().close();
});

// The proxies' limits in the lab: HAProxy's maxconn per server and Envoy's
// circuit breaker across the pool, each a slider that takes a click at its
// centre and runs as `lbsim run` does. One balancer at load 0.9 keeps
// about 130 requests out, 13 a server, so either limit bites at the
// slider's middle (maxconn 5 or 10, max_requests 100).
for (const key of ['server_maxconn', 'max_requests']) {
  test(`${key} takes a click at its centre and limits the run as the command line does`, async () => {
    const settings = 'policy=random&balancers=1&load=0.9';
    const { page, errors } = await openApp(browser, server.url, { hash: `${settings}&autoplay=0`, width: 1440, height: 900 });
    const slider = page.locator(`#${key}`);
    assert.equal(await slider.getAttribute('aria-disabled'), 'false');
    await clickCentre(page, slider);
    assert.equal(await page.evaluate(() => document.activeElement?.id), key);
    await page.waitForFunction((key) => location.hash.includes(`${key}=`), key);
    const limit = (await hashEntries(page)).get(key);
    assert.notEqual(limit, '0', 'a click at the centre sets a limit');
    await page.evaluate((ms) => window.lbsim.advance(ms), 2000 - await page.evaluate(() => window.lbsim.simTime()));
    const run = (value) => nativeRun(`${settings}&${key}=${value}&duration_s=2&warmup_s=0`).summary.trace_hash;
    assert.equal((await summary(page)).trace_hash, run(limit), 'the lab runs the limit as `lbsim run` does');
    assert.notEqual(run(limit), run(0), `${key}=${limit} changes the run`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
