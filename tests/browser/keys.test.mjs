// Keys in the lab: under a placement scheme the "where keys live" figure
// shows the ring and each server's share of the key space, the topology
// shows the key just placed, the key controls apply, and the browser puts
// every key on the same server as the command line does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { browser, server, useBrowser, openApp, drawnFraction, hashEntries, screenshot, CLI } from './lib.mjs';

useBrowser();

/** Whether the topology's legend lists an entry containing `text`. */
const legendLists = (page, text) =>
  page.evaluate((t) => [...document.querySelectorAll('.stage .legend li')].some((li) => !li.hidden && li.textContent.includes(t)), text);

/** Whether the take-away offers the picture `part`. */
const offered = (page, part) => page.evaluate((id) => !document.getElementById(id).hidden, `download-${part}`);

/** `lbsim keys default --set ...` for a hash's settings, as JSON. */
function nativeKeys(hash) {
  const sets = hash.split('&').filter(Boolean).flatMap((entry) => ['--set', entry]);
  return JSON.parse(execFileSync(CLI, ['keys', 'default', ...sets, '--json'], { encoding: 'utf8' }));
}

for (const settings of ['policy=ring&virtual_nodes=5', 'policy=maglev&servers=13', 'policy=rendezvous&key_space=500', 'policy=table', 'policy=ranges&servers=7', 'policy=modulo']) {
  test(`the browser places every key where the command line does: ${settings}`, async () => {
    const { page, errors } = await openApp(browser, server.url, { hash: settings });
    const native = nativeKeys(settings);
    const browserServers = await page.evaluate((n) => Array.from(window.lbsim.views()[0].keyServers(n)), native.keys);
    assert.equal(browserServers.length, native.keys);
    assert.deepEqual(browserServers, native.servers);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}

test('a ring shows where keys live, the key just placed, and its spread as the command line gives it', async () => {
  const settings = 'policy=ring&virtual_nodes=5&speed=0.2';
  const { page, errors } = await openApp(browser, server.url, { hash: settings });
  await page.waitForFunction(() => window.lbsim.simTime() > 300);
  assert.equal(await page.isVisible('#chart-keys'), true);
  await page.locator('#chart-keys').scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  assert.ok((await drawnFraction(page, 'chart-keys')) > 0.02, 'the ring and bars are drawn');
  const { spread } = nativeKeys('policy=ring&virtual_nodes=5');
  const expected = `over 10 servers: sd/mean ${spread.sd_over_mean.toFixed(2)}, max/mean ${spread.max_over_mean.toFixed(2)}`;
  assert.equal(await page.textContent('#chart-keys-spread'), expected);
  const shown = JSON.parse(await page.evaluate(() => window.lbsim.views()[0].decision()));
  assert.match(shown.caption, /sent key \d+ to its place, server \d+ \(\d+ requests there\)\.$/);
  assert.equal(shown.decision.key !== null, true);
  await screenshot(page, 'keys-ring-5');
  // More virtual nodes: a fairer share, at once (a live setting).
  await page.focus('#virtual_nodes');
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
  assert.equal((await hashEntries(page)).get('virtual_nodes'), '100');
  const hundred = nativeKeys('policy=ring&virtual_nodes=100').spread;
  const wanted = `over 10 servers: sd/mean ${hundred.sd_over_mean.toFixed(2)}, max/mean ${hundred.max_over_mean.toFixed(2)}`;
  await page.waitForFunction((text) => document.getElementById('chart-keys-spread').textContent === text, wanted);
  const fairer = Number((await page.textContent('#chart-keys-spread')).match(/sd\/mean (\d\.\d\d)/)[1]);
  assert.ok(fairer < spread.sd_over_mean / 2, `${fairer} against ${spread.sd_over_mean} with 5 virtual nodes`);
  assert.equal(await offered(page, 'keys'), true, 'the picture is offered');
  // A policy that ignores keys: no figure (and no empty picture of it to
  // take away), and the key controls say why.
  await page.selectOption('#policy', 'power-of-d');
  assert.equal(await page.isVisible('#chart-keys'), false);
  assert.equal(await offered(page, 'keys'), false, 'no picture of a hidden figure');
  assert.equal(await offered(page, 'percentiles'), true);
  assert.equal(await page.getAttribute('#virtual_nodes', 'aria-disabled'), 'true');
  assert.match(await page.textContent('#virtual_nodes-help'), /^Not used by power of d choices/);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('servers join and leave from the page: the ring changes, the URL keeps the change, and nothing is lost', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: 'policy=ring&virtual_nodes=20&speed=0.5' });
  await page.waitForFunction(() => window.lbsim.simTime() > 300);
  const spread = () => page.textContent('#chart-keys-spread');
  assert.match(await spread(), /^over 10 servers/);
  // The legend lists what can happen: no keys move, no server is out, until one is.
  assert.equal(await legendLists(page, 'keys moving'), false);
  assert.equal(await legendLists(page, 'server crashed'), false);
  assert.equal(await legendLists(page, 'a key\'s placement'), true);
  await page.click('#add-server');
  assert.equal(await legendLists(page, 'keys moving'), true);
  assert.match(await page.textContent('#membership-status'),
    /^Server 10 joined at \d+\.\d{3} s; \d+\.\d% of keys moved, where \d+\.\d% had to \(the server's own\)\.$/);
  await page.waitForFunction(() => /^over 11 servers/.test(document.getElementById('chart-keys-spread').textContent));
  await page.selectOption('#member', '3');
  await page.click('#crash-server');
  assert.match(await page.textContent('#membership-status'), /^Server 3 crashed at \d+\.\d{3} s(; \d+ requests it held went back to be placed again)?; /);
  await page.waitForFunction(() => /^over 10 servers/.test(document.getElementById('chart-keys-spread').textContent));
  assert.equal(await legendLists(page, 'server crashed'), true);
  // The link names both changes at the instants they applied.
  const membership = decodeURIComponent((await hashEntries(page)).get('membership'));
  assert.match(membership, /^\d+\.\d{1,3}s:add,\d+\.\d{1,3}s:crash:3$/);
  assert.match(await page.textContent('#member'), /3 \(crashed\)/);
  // A change that cannot apply says why and changes nothing.
  await page.click('#crash-server');
  assert.match(await page.textContent('#membership-status'), /^Not applied: field `membership`: `crash:3` cannot apply now/);
  assert.equal(decodeURIComponent((await hashEntries(page)).get('membership')), membership);
  await page.locator('#topology').scrollIntoViewIfNeeded();
  await screenshot(page, 'membership-crashed');
  // The link replays the same run: opened afresh and brought to the same
  // simulated time, it gives the same counts, event for event.
  await page.click('#play');
  const time = await page.evaluate(() => window.lbsim.simTime());
  const first = JSON.parse(await page.evaluate(() => window.lbsim.summary()));
  assert.ok(first.counts.crash_replaced > 0, 'the crash sent requests back');
  const { page: again, errors: errorsAgain } = await openApp(browser, server.url, { hash: new URL(page.url()).hash.slice(1) });
  await again.click('#play');
  const start = await again.evaluate(() => window.lbsim.simTime());
  assert.ok(start < time, `${start} < ${time}`);
  await again.evaluate((ms) => window.lbsim.advance(ms), time - start);
  const second = JSON.parse(await again.evaluate(() => window.lbsim.summary()));
  assert.deepEqual(second.counts, first.counts);
  assert.deepEqual(second.completed_per_server, first.completed_per_server);
  assert.equal(second.trace_hash, first.trace_hash);
  assert.deepEqual(errorsAgain, []);
  await again.context().close();
  assert.deepEqual(errors, []);
  await page.context().close();
});

/** The box (CSS px) the ink of canvas `id` spans, in frame `page`. */
const inkBox = (page, id) => page.evaluate((id) => {
  const canvas = document.getElementById(id);
  const { width, height } = canvas;
  const { data } = canvas.getContext('2d').getImageData(0, 0, width, height);
  const background = data.slice(0, 4).join();
  let [left, right, top, bottom] = [width, -1, height, -1];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = 4 * (y * width + x);
      if (data.slice(i, i + 4).join() === background) continue;
      [left, right, top, bottom] = [Math.min(left, x), Math.max(right, x), Math.min(top, y), Math.max(bottom, y)];
    }
  }
  const css = canvas.getBoundingClientRect().width / width;
  return { w: (right - left + 1) * css, h: (bottom - top + 1) * css, canvas: [canvas.getBoundingClientRect().width, canvas.getBoundingClientRect().height] };
}, id);

for (const [name, hash] of [
  ['keys alone', 'policy=ring&controls=virtual_nodes&charts=keys'],
  ['keys with the moved sentence', 'policy=ring&membership=10s:add&controls=virtual_nodes&charts=percentiles,keys&say=moved'],
]) {
  test(`in a 680 × 400 frame the ring is large enough to read (${name})`, async () => {
    const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 680, height: 400 });
    await page.waitForFunction(() => window.lbsim.simTime() > 1500, null, { timeout: 20_000 });
    // Past the join at 10 s, with its sentence: the view as it settles.
    await page.evaluate(() => window.lbsim.advance(11_000 - window.lbsim.simTime()));
    await page.waitForTimeout(1000);
    // Where the frame gives the picture and the named control the room,
    // the charts open from their button over the picture.
    const chart = page.getByRole('button', { name: 'Chart', exact: true });
    if (await chart.isVisible()) await chart.click();
    const tab = page.getByRole('tab', { name: 'Keys' });
    if (await tab.count()) await tab.click();
    await page.waitForTimeout(500);
    // The ring took 85 to 110 px beside bars whose ticks ran together
    // ("0246810"), under a note that took half the column.
    const ink = await inkBox(page, 'chart-keys');
    assert.ok(Math.min(ink.w, ink.h) >= 150, `the ring spans ${ink.w.toFixed(0)} × ${ink.h.toFixed(0)} px of a ${ink.canvas} canvas`);
    await screenshot(page, `keys-embed-680x400-${name.replaceAll(' ', '-')}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
}
