// Opens code-server (URL) in Chromium through Playwright and keeps the
// page open until stdin ends, so that VS Code runs its extension host (and
// with it the extensions) while the Go test looks at the processes.
// Inputs: URL, PLAYWRIGHT (the directory holding playwright-core), CHROMIUM.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(join(process.env.PLAYWRIGHT, 'package.json'));
const { chromium } = require('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
const page = await browser.newPage();
await page.goto(process.env.URL, { timeout: 240000 });
await page.locator('.monaco-workbench').waitFor({ timeout: 240000 });
console.log('opened');
process.stdin.resume();
await new Promise((resolve) => process.stdin.on('end', resolve));
await browser.close();
