// The lab (also with a server failing) and an embed at desktop and phone
// width, light and dark: no sideways scrolling, no console error, and a
// screenshot of each in tests/browser/artifacts/ to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, server, useBrowser, openApp, screenshot } from './lib.mjs';

useBrowser();

const PAGES = [
  ['lab', '', 'policy=power-of-d'],
  // Server 3 failing fast since 1 s, as the servers box's button makes it.
  ['lab-failing', '', 'policy=least-connections&clients=200&session_length=1&load=0.7&retry_budget=0&eject_after=3&failures=1s:fast-fail:3:p=0.9'],
  ['embed', 'embed.html', 'policy=power-of-d&controls=policy,staleness_ms&charts=percentiles,clients&caption=Power%20of%20two%2C%20live%20load'],
];

for (const [name, path, hash] of PAGES) {
  for (const [width, height] of [[1280, 800], [360, 780]]) {
    for (const colorScheme of ['light', 'dark']) {
      test(`${name} at ${width} px, ${colorScheme}`, async () => {
        const { page, errors } = await openApp(browser, server.url + path, { hash, width, height, colorScheme });
        await page.waitForFunction(() => window.lbsim.simTime() > 3000);
        await page.waitForTimeout(1200);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
        await screenshot(page, `${name}-${width}-${colorScheme}`);
        assert.deepEqual(errors, []);
        await page.context().close();
      });
    }
  }
}
