// Makes the README's pictures of the tool pages, docs/tool-page.png and docs/tool-page-dark.png (a
// tool with its answer beside the form) and docs/tool-list.png (the top of the list at /): starts
// the built service (run `npm run build` first) on a free loopback port with every built-in plugin,
// opens the QR code page in Debian's chromium (/usr/bin/chromium, driven by playwright-core, as the
// browser tests do), loads the first example, runs it and photographs the page, light and dark.
// Usage: node scripts/screenshot-tool-page.mjs [page path, default /tools/qr-code-generator/create]
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createLogger, defaultsFile, loadConfig } from '../dist/kernel/host/index.js';
import { startToolshed } from '../dist/service/compose.js';

const page = process.argv[2] ?? '/tools/qr-code-generator/create';
const docs = fileURLToPath(new URL('../docs/', import.meta.url));
const service = await startToolshed({ config: await loadConfig({ HOST: '127.0.0.1', PORT: '0' }, defaultsFile), logger: createLogger('silent') });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  for (const [scheme, file] of [['light', 'tool-page.png'], ['dark', 'tool-page-dark.png']]) {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme: scheme });
    await tab.goto(`${service.url}${page}`);
    await tab.locator('button.example').first().click();
    await tab.locator('button[type=submit]').click();
    await tab.locator('.answer:not([hidden])').waitFor();
    // Run scrolled the page; from the top the answer sits beside the form, not stuck lower down.
    await tab.mouse.wheel(0, -100_000);
    await tab.waitForFunction('window.scrollY === 0');
    await tab.screenshot({ path: `${docs}${file}`, fullPage: true });
    await tab.close();
    console.log(`wrote docs/${file}`);
  }
  const list = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await list.goto(`${service.url}/`);
  await list.locator('.category').first().waitFor();
  await list.screenshot({ path: `${docs}tool-list.png` });
  await list.close();
  console.log('wrote docs/tool-list.png');
} finally {
  await browser.close();
  await service.stop();
}
