// Your own traffic in the lab: a trace chosen (or dropped) is read in the
// page by the trace worker and replayed; the rate strip draws under the
// percentile chart; the trace's summary and a replay's trace hash are the
// command line's, number for number; compare runs both policies on the
// same requests; and a link to a replay asks for its file by name, size
// and hash, refusing any other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browser, server, useBrowser, openApp, drawnFraction, hashEntries, noticeSays, screenshot, CLI, ROOT } from './lib.mjs';

useBrowser();

const ON_OFF = join(ROOT, 'scenarios', 'traces', 'on-off.csv');
const DIURNAL = join(ROOT, 'scenarios', 'traces', 'diurnal.csv');
/** The on/off sample as links name it: file, size and FNV-1a hash. */
const ON_OFF_NEED = 'on-off.csv:338928:ad0ba2568b68dd70';

const traceState = async (page) => JSON.parse(await page.evaluate(() => window.lbsim.trace()));
const native = (args) => JSON.parse(execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 26 }));

/** Chooses `file` in the trace box and waits for the lab to replay it. */
async function choose(page, file) {
  await page.setInputFiles('#trace-file', file);
  await page.waitForFunction(() => JSON.parse(window.lbsim.trace()).replaying, null, { timeout: 20_000 });
}

test('a trace chosen in the lab replays, with its report and its rate under the percentile chart', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1440, height: 900 });
  // Queueing theory's level is for the scenario's own arrivals, not a trace's.
  const theory = page.getByText(/^theory: mean wait/);
  assert.ok(await theory.isVisible(), 'the scenario has its theory level');
  await choose(page, ON_OFF);
  await theory.waitFor({ state: 'hidden', timeout: 10_000 });
  const state = await traceState(page);
  assert.equal(state.need, ON_OFF_NEED);
  assert.equal(state.rows, 20000);
  assert.match(state.status, /^Replaying on-off\.csv \(20000 requests, looped\) at speed 1: it offers these servers load 0\.008/);
  assert.match(state.report, /20000 requests over 247\.239 s/);
  const entries = await hashEntries(page);
  assert.equal(decodeURIComponent(entries.get('trace')), ON_OFF_NEED, 'the link names the trace');
  assert.equal(entries.get('session_length'), '1', 'a trace plays sessions of one request');
  await page.waitForFunction(() => JSON.parse(window.lbsim.summary()).counts.created > 200, null, { timeout: 20_000 });
  assert.ok(state.strip, 'the rate strip shows');
  assert.ok(await drawnFraction(page, 'rate-strip') > 0.05, 'the rate strip draws the trace');
  // The strip sits under the percentile chart, in the charts column.
  const [chart, strip] = await page.evaluate(() => ['#chart-percentiles', '#rate-strip']
    .map((s) => document.querySelector(s).getBoundingClientRect()).map((r) => [r.left, r.top, r.bottom]));
  assert.ok(Math.abs(chart[0] - strip[0]) < 30 && strip[1] > chart[2], `strip ${strip} under chart ${chart}`);
  await screenshot(page, 'trace-lab-1440');
  // The servers are nearly idle at speed 1: the box says which speed
  // would load them to 0.9 at the trace's peak, its mean there, and how
  // long a pass lasts, and that speed does.
  const suggestion = /; speed ([0-9.]+) would offer load ([0-9.]+) on average and 0\.900 at its peak, one pass lasting ([0-9.]+) s/;
  const [, suggested, mean, pass] = state.status.match(suggestion) ?? [];
  assert.ok(suggested && Number(mean) < 0.9, state.status);
  assert.ok(Math.abs(Number(pass) * Number(suggested) - (247.239 + 247.239 / 19999)) < 0.01 * Number(suggested),
    `a pass of ${pass} s at speed ${suggested}`);
  await page.fill('#trace-speed', suggested);
  await page.dispatchEvent('#trace-speed', 'change');
  // The box shows three figures (65.0); the link writes the number (65).
  await page.waitForFunction((s) => location.hash.includes(`trace_speed=${s}`), String(Number(suggested)));
  const busy = (await traceState(page)).status;
  const [, load, peak] = busy.match(/offers these servers load ([0-9.]+) on average and ([0-9.]+) at its peak/);
  assert.ok(Math.abs(Number(peak) - 0.9) < 0.01 && Math.abs(Number(load) - Number(mean)) < 0.01 * Number(mean) && !busy.includes('would offer'), busy);
  // The strip's peak is the rate as replayed, beside the throughput the
  // view shows: the trace's own peak times the speed.
  const stripPeak = async () => {
    const label = await page.getAttribute('#rate-strip', 'aria-label');
    const [, rate, speed] = label.match(/: peak ([0-9,]+) requests a second at speed ([0-9.]+)$/) ?? [];
    assert.ok(rate, label);
    return [Number(rate.replaceAll(',', '')), Number(speed)];
  };
  await page.waitForFunction((s) => document.querySelector('#rate-strip').getAttribute('aria-label').endsWith(`speed ${s}`), String(Number(suggested)));
  const [fast] = await stripPeak();
  // The rows' classes, speed and looping in the box change the replay.
  await page.fill('#trace-speed', '4');
  await page.dispatchEvent('#trace-speed', 'change');
  await page.waitForFunction(() => location.hash.includes('trace_speed=4'));
  await page.waitForFunction(() => document.querySelector('#rate-strip').getAttribute('aria-label').endsWith('speed 4'));
  const [slow] = await stripPeak();
  assert.ok(Math.abs(slow / fast - 4 / Number(suggested)) < 0.01, `peak ${slow}/s at speed 4 against ${fast}/s at ${suggested}`);
  // Stopping drops the trace from the link and from the run.
  await page.click('#trace-stop');
  await theory.waitFor();
  const stopped = await traceState(page);
  assert.equal(stopped.need, null);
  assert.equal(stopped.replaying, false);
  assert.ok(!(await hashEntries(page)).has('trace'));
  assert.deepEqual(errors, []);
});

test('the summary and a replay are the same in the browser as natively', async () => {
  const { page, errors } = await openApp(browser, server.url);
  // The diurnal sample names its classes: the box takes them in the
  // order of the scenario's class_shares, as --trace-classes does, with
  // a share and a cost for each.
  await page.fill('#trace-classes', 'api,static');
  await page.fill('#trace-shares', '0.7,0.3');
  await page.fill('#trace-costs', '10,1');
  await page.dispatchEvent('#trace-classes', 'change');
  await choose(page, DIURNAL);
  const browserSummary = JSON.parse((await traceState(page)).summary);
  const nativeTrace = native(['trace', DIURNAL, '--json']);
  assert.deepEqual(browserSummary, nativeTrace.summary);
  assert.equal((await traceState(page)).need, `diurnal.csv:${nativeTrace.bytes}:${nativeTrace.hash}`);
  // A replay of the trace, looped and sped up, under two classes.
  const settings = 'session_length=1&class_shares=0.7,0.3&class_costs=10,1&policy=ring&duration_s=45&seed=4';
  const link = `${settings}&trace=diurnal.csv:${nativeTrace.bytes}:${nativeTrace.hash}&trace_speed=20&trace_classes=api,static`;
  const inBrowser = JSON.parse(await page.evaluate((link) => window.wasmBindings.summary_json(link), link));
  const sets = settings.split('&').flatMap((entry) => ['--set', entry]);
  const natively = native(['run', 'default', ...sets, '--trace', DIURNAL, '--trace-classes', 'api,static',
    '--trace-speed', '20', '--trace-loop', '--json']);
  assert.ok(natively.summary.counts.created > 36000, 'the replay loops the trace');
  assert.equal(inBrowser.trace_hash, natively.summary.trace_hash);
  assert.deepEqual(inBrowser, natively.summary);
  assert.deepEqual(errors, []);
});

test('the diurnal sample replays as it is under one class, as natively; a refused file is read again with new columns', async () => {
  const { page, errors } = await openApp(browser, server.url);
  // Its rows name their classes (api, static); the lab's scenario has one
  // class, so every row is of it, as the command line without
  // --trace-classes has it.
  await choose(page, DIURNAL);
  const state = await traceState(page);
  assert.equal(state.rows, 30000);
  assert.equal((await hashEntries(page)).get('trace_classes') ?? '', '', 'no classes are named for it');
  const nativeTrace = native(['trace', DIURNAL, '--json']);
  const link = `session_length=1&duration_s=30&seed=3&trace=diurnal.csv:${nativeTrace.bytes}:${nativeTrace.hash}&trace_speed=40`;
  const inBrowser = JSON.parse(await page.evaluate((link) => window.wasmBindings.summary_json(link), link));
  const natively = native(['run', 'default', '--set', 'session_length=1', '--set', 'duration_s=30', '--seed', '3',
    '--trace', DIURNAL, '--trace-speed', '40', '--trace-loop', '--json']);
  assert.ok(natively.summary.counts.created > 20000, `the replay ran: ${natively.summary.counts.created} requests`);
  assert.deepEqual(inBrowser, natively.summary);
  // A file whose time column has another name is refused (the trace
  // replayed plays on); once the columns say which it is, that file is
  // read again, unchosen, and replayed.
  const dir = mkdtempSync(join(tmpdir(), 'lbsim-trace-'));
  const renamed = join(dir, 'renamed.csv');
  writeFileSync(renamed, `ts,service_ms\n${Array.from({ length: 300 }, (_, i) => `${i * 10},${(i % 5) + 1}`).join('\n')}\n`);
  await page.setInputFiles('#trace-file', renamed);
  await noticeSays(page, ['renamed.csv']);
  assert.equal((await traceState(page)).rows, 30000);
  await page.fill('#trace-columns', 'time=ts:ms');
  await page.dispatchEvent('#trace-columns', 'change');
  await page.waitForFunction(() => JSON.parse(window.lbsim.trace()).rows === 300, null, { timeout: 20_000 });
  assert.ok((await traceState(page)).replaying);
  assert.deepEqual(errors, []);
});

/** Clicks the box's field `selector` at its centre, types `text` over
 * what it holds and leaves it, as a person does (its change event fires). */
async function typeInto(page, selector, text) {
  await page.click(selector);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Tab');
}

const statusSays = (page, start) => page.waitForFunction(
  (start) => JSON.parse(window.lbsim.trace()).status.startsWith(start), start, { timeout: 20_000 });

test('the trace box sits after the demand settings, takes classes with their shares and costs, and says in itself what it refuses', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1440, height: 900 });
  // Where a person sets the load, not the eighth group of nine (y ≈ 5,600).
  assert.equal(await page.evaluate(() => document.querySelector('.trace-box').previousElementSibling.dataset.group), 'Demand');
  await choose(page, DIURNAL);
  // The essay's steps tell the scenario's stories; a replay is none of them.
  await page.waitForFunction(() => document.querySelector('.step-caption').textContent.startsWith('Replaying'));
  assert.equal(await page.textContent('.step-caption'),
    "Replaying diurnal.csv: its arrivals stand in for the scenario's, so no step of the essay tells this run's story.");
  assert.equal(await page.locator('.steps a[aria-current]').count(), 0);
  // Two classes named for a scenario of one: refused in the box, before
  // the replay meets a row of the second class and stops.
  await typeInto(page, '#trace-classes', 'api,static');
  await statusSays(page, 'Classes');
  assert.equal((await traceState(page)).status,
    'Classes “api,static” names 2 classes and the scenario has 1 (class_shares): give it as many in Class shares and Class costs.');
  await page.evaluate(() => window.lbsim.advance(2000));
  assert.ok((await traceState(page)).status.startsWith('Classes'), 'no stop to tell');
  assert.ok(await page.evaluate(() => window.lbsim.simTime()) > 1.9, 'the replay goes on');
  // The shares alone do not make classes: the costs must match them.
  await typeInto(page, '#trace-shares', '0.7,0.3');
  await statusSays(page, 'Class shares and costs not used');
  await typeInto(page, '#trace-costs', '10,1');
  await statusSays(page, 'Replaying diurnal.csv');
  const entries = await hashEntries(page);
  assert.deepEqual(['class_shares', 'class_costs', 'trace_classes'].map((k) => decodeURIComponent(entries.get(k))),
    ['0.7,0.3', '10,1', 'api,static']);
  await page.evaluate(() => window.lbsim.advance(2000));
  assert.ok((await traceState(page)).status.startsWith('Replaying'), 'rows of both classes replay');
  // The report opens whole, as wide as its lines.
  await page.click('#trace-open-report');
  const [scroll, client, width] = await page.evaluate(() => {
    const pre = document.querySelector('#trace-report');
    return [pre.scrollWidth, pre.clientWidth, pre.getBoundingClientRect().width];
  });
  assert.ok(scroll <= client && width > 900, `the report is ${width} px wide, its lines ${scroll}`);
  await screenshot(page, 'trace-report-1440');
  await page.keyboard.press('Escape');
  assert.ok(!(await page.locator('#trace-report').isVisible()));
  assert.deepEqual(errors, []);
});

test('a replay that stops says why in the trace box', async () => {
  const nativeTrace = native(['trace', DIURNAL, '--json']);
  const need = `diurnal.csv:${nativeTrace.bytes}:${nativeTrace.hash}`;
  const { page, errors } = await openApp(browser, server.url, { hash: `trace=${need}&trace_classes=api,static&session_length=1` });
  await choose(page, DIURNAL);
  await page.evaluate(() => window.lbsim.advance(500));
  await statusSays(page, 'the replay stopped at 0.098 simulated s');
  assert.deepEqual(errors, []);
});

test('compare mode runs both policies on the same requests of the trace', async () => {
  const { page, errors } = await openApp(browser, server.url, { width: 1280, height: 720 });
  await choose(page, ON_OFF);
  await page.fill('#versus', 'policy:least-request');
  await page.dispatchEvent('#versus', 'change');
  await page.waitForFunction(() => window.lbsim.versusSummary() != null, null, { timeout: 20_000 });
  await page.waitForFunction(() => JSON.parse(window.lbsim.trace()).replaying, null, { timeout: 20_000 });
  await page.evaluate(() => window.lbsim.advance(5000));
  const [a, b] = await page.evaluate(() => [window.lbsim.summary(), window.lbsim.versusSummary()].map((s) => JSON.parse(s)));
  assert.ok(a.counts.created > 300, `A made ${a.counts.created} requests`);
  assert.equal(a.counts.created, b.counts.created, 'A and B are sent the same requests');
  assert.notEqual(a.trace_hash, b.trace_hash, 'A and B route them differently');
  await page.waitForFunction(() => JSON.parse(window.lbsim.chartLines()).percentiles.includes('B p99'), null, { timeout: 20_000 });
  await screenshot(page, 'trace-compare-1280');
  assert.deepEqual(errors, []);
});

test('a link to a replay asks for its trace, refuses another file and replays the right one', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: `trace=${ON_OFF_NEED}&session_length=1` });
  await noticeSays(page, ['This link replays the trace on-off.csv (338928 bytes, FNV-1a hash ad0ba2568b68dd70)', 'choose that file']);
  // Waiting for a file is no setting refused: the heading about those stays away.
  assert.ok(!(await page.locator('#notice strong').isVisible()), 'the trace request sits under the heading about refused settings');
  const waiting = await traceState(page);
  assert.ok(waiting.waiting && !waiting.replaying);
  await page.click('#play');
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.lbsim.simTime()), 0, 'nothing runs without the trace');
  await screenshot(page, 'trace-link-waiting');
  const other = join(mkdtempSync(join(tmpdir(), 'lbsim-trace-')), 'other.csv');
  writeFileSync(other, 'time_s\n0.1\n0.2\n0.4\n');
  await page.setInputFiles('#trace-file', other);
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('is not the trace'), null, { timeout: 20_000 });
  await noticeSays(page, ['other.csv is not the trace this link replays: it has 19 bytes', 'on-off.csv, has 338928 bytes']);
  assert.ok((await traceState(page)).waiting);
  await choose(page, ON_OFF);
  await page.click('#play');
  await page.waitForFunction(() => window.lbsim.simTime() > 0);
  assert.deepEqual(errors, []);
});

test('a file dropped on the lab is read; a bad one gets its row and column named', async () => {
  const { page, errors } = await openApp(browser, server.url);
  const drop = (name, text) => page.evaluate(([name, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type: 'text/csv' }));
    const root = document.querySelector('[data-lbsim="lab"]');
    root.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    root.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [name, text]);
  await drop('backwards.csv', 'time_s,service_ms\n0.5,3\n0.25,3\n');
  await noticeSays(page, ['backwards.csv', 'row 2', 'time_s']);
  assert.equal((await traceState(page)).need, null, 'a bad trace is not replayed');
  const rows = Array.from({ length: 500 }, (_, i) => `${(i * 0.01).toFixed(2)},${(i % 7) + 1}`).join('\n');
  await drop('even.csv', `time_s,service_ms\n${rows}\n`);
  await page.waitForFunction(() => JSON.parse(window.lbsim.trace()).replaying, null, { timeout: 20_000 });
  assert.equal((await traceState(page)).rows, 500);
  assert.deepEqual(errors, []);
});

test('an embed whose link names a trace says it runs the scenario alone, and runs', async () => {
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash: `trace=${ON_OFF_NEED}` });
  await noticeSays(page, ['An embed does not replay traces']);
  await page.waitForFunction(() => window.lbsim.simTime() > 0, null, { timeout: 20_000 });
  assert.deepEqual(errors, []);
});
