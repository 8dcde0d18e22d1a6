// FoundationDB's balancers in the lab: the policy menu offers both, the
// step log tells what a request's balancer did, and with two datacenters
// the topology parts their servers with a dashed line, named on both
// sides. Paused (autoplay=0) and advanced through the hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, inkAlong, screenshot } from './lib.mjs';

useBrowser();

const SETTINGS = 'policy=fdb-load-balance&datacenters=2&load=0.7&autoplay=0';
const drawnServers = async (page) => JSON.parse(await page.evaluate(() => window.lbsim.views()[0].servers()));

test('two datacenters are parted on the topology, and the step log tells what each balancer did', async () => {
  const { page, errors } = await openApp(browser, server.url, { hash: SETTINGS });
  const offered = await page.$$eval('#policy option', (options) => options.map((o) => o.value));
  assert.ok(offered.includes('fdb-basic') && offered.includes('fdb-load-balance'), offered.join(', '));
  await page.evaluate(() => window.lbsim.advance(3000));
  await page.waitForTimeout(200);
  const servers = await drawnServers(page);
  assert.deepEqual(servers.map((s) => s.datacenter), [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
  // Halfway between two rows, clear of the labels at the left: ink where
  // the datacenters meet (a dash of 6 px every 10), none between rows of one.
  const between = (i) => {
    const [x, y, w, h] = servers[i].cell;
    return [x + 110, (y + h + servers[i + 1].cell[1]) / 2, w - 130];
  };
  await page.locator('#topology').scrollIntoViewIfNeeded();
  const [boundary, inside] = [await inkAlong(page, between(4)), await inkAlong(page, between(2))];
  assert.ok(boundary > 0.3 && inside < 0.05, `ink between rows: datacenters ${boundary}, within one ${inside}`);
  await screenshot(page, 'two-datacenters');
  // Step until a balancer's reply is told: what it heard, and what it did.
  let told = [];
  for (let i = 0; i < 200 && !told.some((t) => /FoundationDB balancer hears/.test(t)); i += 1) {
    await page.click('#step');
    told = await page.$$eval('#event-log li', (items) => items.map((li) => li.textContent));
  }
  assert.match(told.find((t) => /FoundationDB balancer hears/.test(t)) ?? told.join(' | '), /FoundationDB balancer hears a reply from server \d+ for .*: it (gives the client server \d+'s reply|does nothing more)/);
  assert.deepEqual(errors, []);
});
