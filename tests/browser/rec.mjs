import { launch } from './lib.mjs';
const browser = await launch();
const page = await browser.newPage();
for (const [w, h, n] of [[1280, 720, 40], [1600, 900, 40], [1920, 1080, 100], [2124, 2741, 100]]) {
  const bytes = await page.evaluate(async ([w, h, n]) => {
    const c = document.createElement('canvas'); c.width = w; c.height = h;
    const x = c.getContext('2d');
    const rec = new MediaRecorder(c.captureStream(30), { mimeType: 'video/webm' });
    const parts = []; rec.ondataavailable = (e) => parts.push(e.data);
    rec.start();
    for (let i = 0; i < n; i++) { x.fillStyle = `hsl(${i * 10},50%,50%)`; x.fillRect(0, 0, w, h); x.fillStyle='#000'; x.fillText(String(i), 50, 50); await new Promise((r) => setTimeout(r, 50)); }
    await new Promise((r) => { rec.onstop = r; rec.stop(); });
    return new Blob(parts).size;
  }, [w, h, n]);
  console.log(w, h, n, bytes);
}
await browser.close();
