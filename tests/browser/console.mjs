// The owner console in a real browser (headless Chromium): sign up, log out, log in,
// enable the API, generate a token, use it against the API, regenerate it, and check
// that the old token now gets 401. Screenshots of each page go to docs/screenshots/
// (or to $SCREENSHOTS_DIR).
//
//   BASE_URL=http://localhost:3000 node console.mjs
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const base = process.env.BASE_URL ?? 'http://localhost:3000';
const shots = process.env.SCREENSHOTS_DIR ? `${process.env.SCREENSHOTS_DIR}/` : fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
mkdirSync(shots, { recursive: true });
const subdomain = `acme-${Date.now().toString(36)}`;
const email = 'owner@acme.test';
const password = 'correct-horse-battery';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
const page = await context.newPage();

async function api(path, token) {
  const res = await fetch(`${base}${path}`, { headers: { token } });
  return res.status;
}

async function step(name, fn) {
  process.stdout.write(`- ${name} ... `);
  await fn();
  console.log('ok');
}

try {
  await step('sign up', async () => {
    await page.goto(`${base}/signup`);
    await page.screenshot({ path: `${shots}signup.png`, fullPage: true });
    await page.fill('#company_name', 'Acme Rentals');
    await page.fill('#subdomain', subdomain);
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/settings`);
    assert.equal(await page.textContent('#api-status'), 'disabled');
    assert.equal(await page.textContent('#plan-name'), 'trial');
  });

  await step('a session cookie that is secure, HTTP-only and SameSite', async () => {
    const cookies = await context.cookies(base);
    const session = cookies.find((c) => c.name === 'rentrack_session');
    assert.ok(session, 'session cookie set');
    assert.equal(session.httpOnly, true);
    assert.equal(session.secure, true);
    assert.equal(session.sameSite, 'Lax');
  });

  await step('log out, then a wrong password is refused', async () => {
    await page.click('header button[type=submit]');
    await page.waitForURL(`${base}/login?signed_out=1`);
    await page.fill('#subdomain', subdomain);
    await page.fill('#email', email);
    await page.fill('#password', 'not-the-password');
    await page.click('main button[type=submit]');
    assert.match(await page.textContent('.error'), /company, e-mail or password is not right/);
  });

  await step('log in', async () => {
    await page.fill('#password', password);
    await page.screenshot({ path: `${shots}login.png`, fullPage: true });
    await page.click('main button[type=submit]');
    await page.waitForURL(`${base}/settings`);
  });

  await step('enable the API', async () => {
    await page.click('#api button[type=submit]');
    assert.equal(await page.textContent('#api-status'), 'enabled');
  });

  let first;
  await step('generate a token, shown once, with a copy button', async () => {
    await page.click('#token button[type=submit]');
    first = await page.inputValue('#new-token');
    assert.match(first, /^[0-9a-f]{64}$/);
    await page.click('#copy');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), first);
    await page.screenshot({ path: `${shots}settings-token.png`, fullPage: true });
    await page.goto(`${base}/settings`);
    assert.equal(await page.locator('#new-token').count(), 0, 'not shown again');
  });

  await step('the token works against the API', async () => {
    assert.equal(await api('/locations/get_line_item_locations.api', first), 200);
    assert.equal(await api('/assets/vendors.api', first), 200);
    await page.reload();
    assert.equal(await page.textContent('#usage-today'), '2');
    await page.screenshot({ path: `${shots}settings.png`, fullPage: true });
  });

  await step('regenerate: the old token gets 401, the new one works', async () => {
    await page.click('#token button[type=submit]');
    const second = await page.inputValue('#new-token');
    assert.notEqual(second, first);
    assert.equal(await api('/locations/get_line_item_locations.api', first), 401);
    assert.equal(await api('/locations/get_line_item_locations.api', second), 200);
  });

  await step('pages fit a phone screen', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${base}/settings`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (overflow ${overflow}px)`);
    await page.screenshot({ path: `${shots}settings-phone.png`, fullPage: true });
  });
} finally {
  await browser.close();
}
console.log('browser test passed');
