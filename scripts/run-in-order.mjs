// Runs node:test files in the order given, CONCURRENCY at once, reporting
// as `node --test` does; exits 1 if a test failed. `node --test` itself
// sorts its files by name, so that a long file may start last, one
// Chromium running it while the other has nothing left to run
// (scripts/browser-test.sh starts the slowest first).
//   node scripts/run-in-order.mjs CONCURRENCY FILE...
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const [concurrency, ...files] = process.argv.slice(2);
const stream = run({ files, concurrency: Number(concurrency) });
stream.on('test:fail', ({ todo }) => {
  if (!todo) process.exitCode = 1;
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
