// Failures from the lab: the servers box makes a server fail fast; it is
// drawn as failing, least connections sends it more than its share (the
// black hole) until every client has ejected it, the availability readout
// drops and comes back, and the link, which keeps the failure at the
// instant it applied, replays the same run. Bad failure settings in a link
// are named in notices. The simulation starts paused (autoplay=0) and is
// advanced through the hooks, so every figure comes from fixed simulated
// times and the seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, hashEntries, inkAlong, noticeSays, screenshot, summary } from './lib.mjs';

useBrowser();

// 200 clients each choose for themselves, one request a session, no retry:
// every error reaches a client. Each client ejects a server after 3 errors
// in a row, for a minute, so the cure lasts the whole test.
const SETTINGS = 'policy=least-connections&clients=200&session_length=1&load=0.7&retry_budget=0&eject_after=3&eject_for_ms=60000&autoplay=0';

const advance = async (page, ms) => {
  await page.evaluate((ms) => window.lbsim.advance(ms), ms);
  // The next frame draws the topology and writes the readouts.
  await page.waitForTimeout(200);
};
const drawnServers = async (page) => JSON.parse(await page.evaluate(() => window.lbsim.views()[0].servers()));
/** Requests each server completed or answered with an error, so far. */
const attempts = async (page) => {
  const { completed_per_server: completed, errors_per_server: errors } = await summary(page);
  return completed.map((c, i) => c + errors[i]);
};
const availability = async (page) => Number(await page.textContent('#availability'));

/** Warms up three simulated seconds, then fails server 3 fast from the page. */
async function failServerThree(page) {
  await advance(page, 3000);
  await page.selectOption('#member', '3');
  await page.selectOption('#failure-kind', { label: 'fast-fail, 90%' });
  await page.click('#fail-server');
}

/** The share of ink along the top edge of a server's row: where a failing server's dotted outline runs. */
const inkAlongTop = (page, [x, y, w]) => inkAlong(page, [x + 6, y + 1, w - 12]);

test('a server failed fast from the page is drawn failing, draws traffic until ejected, and availability drops and recovers', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: SETTINGS });
  await failServerThree(page);
  assert.equal(await page.textContent('#membership-status'),
    'Server 3 fails fast from 3.001 s: 90% of its requests get an error after 1 ms.');
  assert.equal(decodeURIComponent((await hashEntries(page)).get('failures')), '3.001s:fast-fail:3:p=0.9:after=1ms');
  assert.match(await page.textContent('#member'), /3 \(failing\)/);
  // A second in: every client still learning, availability well down
  // (measured 91.7%: 90% of what the black hole draws fails).
  await advance(page, 1000);
  const during = await availability(page);
  assert.ok(during < 95, `availability ${during}% a second after the failure`);
  assert.match(await page.textContent('#errors'), /^[1-9][\d,]* errors\/s$/);
  // With no retry, every error fails its request.
  assert.match(await page.textContent('#failed'), /^[1-9][\d,]* failed\/s$/);
  const servers = await drawnServers(page);
  assert.deepEqual(servers.map((s) => s.state), ['active', 'active', 'active', 'failing', ...Array(6).fill('active')]);
  // Drawn failing: a dotted outline in ink along its row, none along its neighbour's.
  await page.locator('#topology').scrollIntoViewIfNeeded();
  const [failing, active] = [await inkAlongTop(page, servers[3].cell), await inkAlongTop(page, servers[2].cell)];
  assert.ok(failing > 0.25 && active < 0.05, `ink along the top: failing ${failing}, active ${active}`);
  await screenshot(page, 'failure-fast-fail');
  // Eight seconds in, every client has ejected it: over the next two it
  // gets nothing (measured 0 against 780 each for the others), and
  // availability is back (measured 100%).
  await advance(page, 7000);
  assert.equal((await drawnServers(page))[3].ejected, 200, 'every client holds it out of its pool');
  const before = await attempts(page);
  await advance(page, 2000);
  const window = (await attempts(page)).map((n, i) => n - before[i]);
  const fairShare = window.reduce((a, b) => a + b) / window.length;
  assert.ok(window[3] < 0.02 * fairShare, `server 3 had ${window[3]} of a fair share of ${fairShare}`);
  const after = await availability(page);
  assert.ok(after > 99.5, `availability ${after}% once ejected`);
  assert.equal(await page.textContent('#errors'), '0 errors/s');
  assert.equal(await page.textContent('#failed'), '0 failed/s');
  // Recovered, it is drawn as a member again; the link keeps both.
  await page.click('#recover-server');
  assert.equal(await page.textContent('#membership-status'), 'Server 3 recovered at 13.002 s.');
  await advance(page, 250);
  assert.equal((await drawnServers(page))[3].state, 'active');
  assert.equal(decodeURIComponent((await hashEntries(page)).get('failures')),
    '3.001s:fast-fail:3:p=0.9:after=1ms,13.002s:recover:3');
  assert.deepEqual(errors, []);
  await page.context().close();
});

// Issue 38: an overload showed availability 80.4% beside "0 errors/s", as
// if nothing had failed. Requests that bounce beyond the retry budget fail
// without an error: the availability readout counts them as failed/s, the
// errors sit under bounces (each sends a try back to choose again), and
// each readout says what it counts when pointed at.
test('an overload fails requests by bouncing: failed/s under availability, errors under bounces', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'load=1.5&retry_budget=1&autoplay=0' });
  await advance(page, 5000);
  const failed = await page.textContent('#failed');
  assert.ok(await availability(page) < 100, `availability ${await availability(page)}%`);
  assert.match(failed, /^[1-9][\d,.k]* failed\/s$/);
  assert.equal(await page.textContent('#errors'), '0 errors/s');
  const readout = (id) => page.locator(`#${id}`).locator('xpath=ancestor::div[@class="readout"]');
  assert.equal(await readout('errors').locator('.name').textContent(), 'Bounces');
  assert.match(await readout('failed').getAttribute('title'), /bounces more often than the retry budget allows; failed\/s counts both/);
  assert.match(await readout('errors').getAttribute('title'), /^Tries sent back to choose again/);
  assert.deepEqual(errors, []);
});

test('the link replays a failure made live: opened afresh and brought to the same time, the same run', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: SETTINGS });
  await failServerThree(page);
  await advance(page, 1500);
  await page.click('#recover-server');
  await advance(page, 500);
  const time = await page.evaluate(() => window.lbsim.simTime());
  const first = await summary(page);
  assert.ok(first.counts.server_errors > 0 && first.counts.failed > 0, 'the failure failed requests');
  const { page: again, errors: errorsAgain } = await openApp(browser, server.url, { hash: new URL(page.url()).hash.slice(1) });
  await advance(again, time);
  const second = await summary(again);
  assert.equal(second.trace_hash, first.trace_hash, 'event for event');
  assert.deepEqual(second.counts, first.counts);
  assert.deepEqual(second.errors_per_server, first.errors_per_server);
  assert.deepEqual(second.completed_per_server, first.completed_per_server);
  assert.deepEqual([...errors, ...errorsAgain], []);
  await again.context().close();
  await page.context().close();
});

test('clicking a failing server recovers it, and a failure the schedule cannot name is refused', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: SETTINGS });
  await failServerThree(page);
  await advance(page, 100);
  const [x, y, w, h] = (await drawnServers(page))[3].cell;
  await page.locator('#topology').scrollIntoViewIfNeeded();
  const box = await page.locator('#topology').boundingBox();
  await page.mouse.click(box.x + x + w - 30, box.y + y + h / 2);
  assert.equal(await page.textContent('#membership-status'), 'Server 3 recovered at 3.102 s.');
  // An added server is not one the schedule can name.
  await page.click('#add-server');
  await page.waitForSelector('#member option[value="10"]', { state: 'attached' });
  await page.selectOption('#member', '10');
  await page.click('#fail-server');
  assert.equal(await page.textContent('#membership-status'),
    'Not applied: field `failures`: `10` is not allowed; expected one of the starting servers, 0 to 9.');
  assert.equal(decodeURIComponent((await hashEntries(page)).get('failures')), '3.001s:fast-fail:3:p=0.9:after=1ms,3.102s:recover:3');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('bad failure settings in a link give notices naming each, and the rest applies', async () => {
  const hash = [
    'retry_budget=-1', 'retry_backoff_ms=soon', 'eject_after=2000', 'eject_for_ms=0', 'eject_max_fraction=1.5',
    'health_check_ms=0', 'failures=10s:sideways:3', 'policy=least-connections',
  ].join('&');
  const { page, errors } = await openApp(browser, server.url, { hash });
  await noticeSays(page, [
    '“retry_budget=-1”: expected a whole number from 0 to 1000; using 10 instead.',
    '“retry_backoff_ms=soon”: expected 0, or a number from 0.001 to 60000; using 0 instead.',
    '“eject_after=2000”: expected a whole number from 0 to 1000; using 0 instead.',
    '“eject_for_ms=0”: expected a number from 0.001 to 3600000; using 10000 instead.',
    '“eject_max_fraction=1.5”: expected a number from 0 to 1; using 0.5 instead.',
    '“health_check_ms=0”: expected "none" or milliseconds from 1 to 3600000; using none instead.',
    '“failures=10s:sideways:3”: entry 1 of `failures`, `10s:sideways:3`: KIND is down, slow, fast-fail, flap or recover, not `sideways`; using none instead.',
  ]);
  assert.equal(await page.inputValue('#policy'), 'least-connections', 'the good entry still applies');
  assert.equal(await page.textContent('#eject_after-value'), '0', 'the control shows the value used');
  assert.deepEqual(errors, []);
  await page.context().close();
});
