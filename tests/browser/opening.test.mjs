// Chapter 1 opens with one request's trip at a pace a reader can follow
// (`first=one`): the first request's client is followed out to the
// server and back at a sixtieth of the view's speed, then everything
// plays at the view's own. Where the opening stands is
// `lbsim::ui::opening`, tested natively; this checks it as a reader meets it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp } from './lib.mjs';

useBrowser();

const followed = (page) => page.evaluate(() => window.lbsim.followedRequests().length);

test('an embed with first=one follows the first trip slowly, then plays at its speed', async () => {
  const hash = 'servers=1&policy=random&load=0.9&first=one';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 800, height: 600 });
  await page.waitForFunction(() => window.lbsim.followedRequests().length > 0, null, { timeout: 10_000 });
  const [t0, w0] = await page.evaluate(() => [window.lbsim.simTime(), performance.now()]);
  await page.waitForTimeout(1000);
  const [t1, w1] = await page.evaluate(() => [window.lbsim.simTime(), performance.now()]);
  // A sixtieth of speed 1 is 16.7 simulated ms a second; full speed, 1000.
  const pace = (t1 - t0) / (w1 - w0);
  assert.ok(pace < 0.05, `during the trip the view ran at ${pace.toFixed(3)} of real time`);
  assert.ok(t1 < 200, `the trip is still on at ${t1} ms`);
  await page.waitForFunction(() => window.lbsim.simTime() > 3000 && window.lbsim.followedRequests().length === 0,
    null, { timeout: 30_000 });
  assert.equal(await followed(page), 0, 'the trip over, no client is followed');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('without first=one, and under reduced motion, the view plays at its speed from the start', async () => {
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash: 'servers=1&load=0.9', width: 800, height: 600 });
  await page.waitForFunction(() => window.lbsim.simTime() > 1500, null, { timeout: 10_000 });
  assert.equal(await followed(page), 0);
  await page.context().close();
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, reducedMotion: 'reduce' });
  const reduced = await context.newPage();
  await reduced.goto(`${server.url}embed.html#servers=1&load=0.9&first=one`);
  await reduced.waitForFunction(() => window.lbsim?.simTime?.() > 1500, null, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

// The trip goes into the row, not to its entrance: reader 16 saw chapter
// 1's first request stop at the word "server" and vanish, its slot some
// 300 px to the right. Followed, a request on its way heads for the slot
// it will take, stands ringed on a slot of its server's box while in
// service (an arc round it filling), and comes out from there.
test("the first trip's request walks into its server's box of slots, is served there and comes out from it", async () => {
  const hash = 'servers=1&policy=random&load=0.9&first=one';
  const { page, errors } = await openApp(browser, `${server.url}embed.html`, { hash, width: 800, height: 600 });
  const seen = await page.evaluate(() => new Promise((resolve, reject) => {
    const seen = [];
    const start = performance.now();
    const look = () => {
      try {
        const view = window.lbsim.views()[0];
        const [row] = JSON.parse(view.servers());
        for (const mark of JSON.parse(view.followedMarks())) seen.push({ ...mark, box: row.slots_box, name: row.name });
        if (view.openingOver() && seen.length > 0) resolve(seen);
        else if (performance.now() - start > 30_000) reject(new Error(`the opening not over in 30 s; ${seen.length} marks seen`));
        else requestAnimationFrame(look);
      } catch (error) {
        reject(error);
      }
    };
    requestAnimationFrame(look);
  }));
  const served = seen.filter((m) => m.hop === 'in-service');
  const out = seen.filter((m) => m.hop === 'client-to-server');
  const back = seen.filter((m) => m.hop === 'server-to-client');
  assert.ok(served.length >= 10 && out.length >= 3 && back.length >= 3, `frames out ${out.length}, served ${served.length}, back ${back.length}`);
  const inside = ([x, y], [bx, by, bw, bh]) => x >= bx && x <= bx + bw && y >= by && y <= by + bh;
  for (const { at, box } of served) assert.ok(inside(at, box), `in service at ${at}, the box at ${box}`);
  // The service arc fills as the service goes on.
  const shares = served.map((m) => m.served);
  assert.ok(shares.every((s, i) => i === 0 || s >= shares[i - 1]) && shares.at(-1) > 0.5, `served ${shares[0]} to ${shares.at(-1)}`);
  // On its way out the dot moves right, to the box, past the row's name.
  const [first, last] = [out[0].at, out.at(-1).at];
  const [bx, , bw] = out.at(-1).box;
  assert.ok(last[0] > first[0] && last[0] > out.at(-1).name[1], `out from x ${first[0]} to ${last[0]}, the name ends at ${out.at(-1).name[1]}`);
  // Back, it leaves from the box (its first frame a little way along),
  // right of the row's name, where it had stopped.
  const from = back[0].at[0];
  assert.ok(from <= bx + bw && from > back[0].name[1], `back from x ${from}, the box from ${bx}, the name ends at ${back[0].name[1]}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});
