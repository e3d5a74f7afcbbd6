/**
 * Stored XSS from admin settings (issue #12, item 7). Root stores each payload in each of the
 * four admin-editable contents (Footer, HomePageContent, About, Notice) and opens the pages
 * that show them: the home page, the about page, and console pages for the footer. A payload
 * that runs calls the `__xssFired` binding (present in every frame) and sets `window.__xss`;
 * neither may happen. Each payload runs twice: with the Content-Security-Policy, as served,
 * and with the browser told to ignore it, so the sanitiser is proven on its own. Another test
 * proves the policy on its own (inline script put into the page directly is refused).
 *
 * The Notice opens as a dialog on the home page; any page that requests /api/notice must show
 * its (sanitised) content, so a screen that fetches it without showing it fails too.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { setOptions, signInRoot } from './gateway-helpers';

const SETTINGS = ['Footer', 'HomePageContent', 'About', 'Notice'] as const;
type Setting = (typeof SETTINGS)[number];

/** What a payload runs when it fires. */
const fire = (tag: string) => `window.__xss='${tag}';window.__xssFired('${tag}')`;

const PAYLOADS: Record<string, (tag: string) => string> = {
  'img-onerror': (tag) => `<img src=x onerror="${fire(tag)}">`,
  script: (tag) => `<script>${fire(tag)}</script>`,
  'javascript-link': (tag) => `<a class="xss-link" href="javascript:${fire(tag)}">xss link ${tag}</a>`,
  'svg-onload': (tag) => `<svg onload="${fire(tag)}"><circle r="4"></circle></svg>`,
  'iframe-srcdoc': (tag) => `<iframe srcdoc="<script>parent.__xss='${tag}';parent.__xssFired('${tag}')</script>"></iframe>`,
  'markdown-link': (tag) => `[xss link ${tag}](javascript:${fire(tag)})`,
};

/** Pages to open, and which settings each shows (the footer is on every page). */
const PAGES: { path: string; shows: Setting[] }[] = [
  { path: '/', shows: ['HomePageContent', 'Footer', 'Notice'] },
  { path: '/about', shows: ['About', 'Footer'] },
  { path: '/pricing', shows: ['Footer'] },
  { path: '/token', shows: ['Footer'] },
];

const marker = (setting: Setting, payload: string) => `xss-marker-${setting}-${payload}`;

interface Watch {
  fired: string[];
  noticeRequested: boolean;
}

/** Signs root in with the binding installed in every frame; records /api/notice requests. */
async function watch(page: Page): Promise<Watch> {
  const w: Watch = { fired: [], noticeRequested: false };
  await page.exposeBinding('__xssFired', (_source, tag: string) => {
    w.fired.push(tag);
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/notice') w.noticeRequested = true;
  });
  page.on('dialog', (dialog) => {
    w.fired.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await signInRoot(page);
  return w;
}

/** Opens every page, clicks every planted link, and checks that nothing ran. */
async function openPagesAndCheck(page: Page, w: Watch, payload: string): Promise<void> {
  for (const { path, shows } of PAGES) {
    w.noticeRequested = false;
    await page.goto(path);
    for (const setting of shows) await expect(page.getByText(marker(setting, payload), { exact: true })).toBeVisible();
    if (w.noticeRequested) await expect(page.getByText(marker('Notice', payload), { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const links = page.locator('a', { hasText: 'xss link' });
    for (let i = 0; i < (await links.count()); i++) await links.nth(i).click({ force: true });
    // Time for an image error, a frame load or a click's navigation to run.
    await page.waitForTimeout(300);
    expect(w.fired, `scripts fired on ${path}`).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), `window.__xss on ${path}`).toBeUndefined();
    // What the sanitiser leaves in the admin content: nothing that can run.
    const risky = await page
      .locator('.sy-markdown, .sy-footer-custom')
      .evaluateAll((boxes) =>
        boxes.flatMap((box) =>
          [...box.querySelectorAll('*')]
            .filter(
              (el) =>
                ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'FORM'].includes(el.tagName.toUpperCase()) ||
                [...el.attributes].some((a) => a.name.toLowerCase().startsWith('on') || a.name.toLowerCase() === 'srcdoc' || /^\s*javascript:/i.test(a.value)),
            )
            .map((el) => el.outerHTML),
        ),
      );
    expect(risky, `runnable markup left on ${path}`).toEqual([]);
  }
}

async function storePayload(page: Page, name: string): Promise<void> {
  const values: Record<string, string> = {};
  for (const setting of SETTINGS) values[setting] = `<p>${marker(setting, name)}</p>\n\n${PAYLOADS[name]!(`${setting}:${name}`)}\n`;
  await setOptions(page, values);
}

async function clearContents(browser: Browser): Promise<void> {
  const page = await browser.newPage();
  await signInRoot(page);
  await setOptions(page, { Footer: '', HomePageContent: '', About: '', Notice: '' });
  await page.close();
}

test.afterAll(async ({ browser }) => {
  await clearContents(browser);
});

test('the console and its API carry the security headers; the relay does not', async ({ page }) => {
  for (const path of ['/', '/about', '/api/status']) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    const h = res.headers();
    const csp = h['content-security-policy'] ?? '';
    const directive = (name: string) => csp.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '';
    // Scripts of our own origin only; eval for the settings forms' validator; never inline.
    expect(directive('script-src'), `${path}: ${csp}`).toMatch(/^script-src 'self' 'unsafe-eval'\s*$/);
    expect(directive('script-src-attr')).toBe("script-src-attr 'none'");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'self'");
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['x-frame-options']).toBe('SAMEORIGIN');
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  }
  // The prerendered sign-in page's one inline script (its early script), by its hash alone.
  const login = (await page.request.get('/login')).headers()['content-security-policy'] ?? '';
  expect(login.split(';').find((d) => d.startsWith('script-src '))).toMatch(/^script-src 'self' 'unsafe-eval' 'sha256-[\w+/]+={0,2}'\s*$/);
  const relay = await page.request.get('/v1/models');
  expect(relay.status()).toBe(401);
  expect(relay.headers()['content-security-policy']).toBeUndefined();
  expect(relay.headers()['x-frame-options']).toBeUndefined();
});

test.describe('with the Content-Security-Policy', () => {
  for (const name of Object.keys(PAYLOADS)) {
    test(`${name} stored in every content runs nothing for root`, async ({ page }) => {
      const w = await watch(page);
      await storePayload(page, name);
      await openPagesAndCheck(page, w, name);
    });
  }

  test('the policy itself refuses inline script that reaches the page', async ({ page }) => {
    const w = await watch(page);
    await page.goto('/about');
    await page.waitForLoadState('networkidle');
    const violations = await page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.effectiveDirective));
      const box = document.createElement('div');
      // As if a sanitiser had missed them: handlers, an inline script element, a javascript: link.
      box.innerHTML = `<img src="/no-such-image" onerror="window.__xssFired('csp:img')"><a id="csp-link" href="javascript:window.__xssFired('csp:link')">x</a>`;
      document.body.appendChild(box);
      const script = document.createElement('script');
      script.textContent = "window.__xssFired('csp:script')";
      document.body.appendChild(script);
      (document.getElementById('csp-link') as HTMLAnchorElement).click();
      await new Promise((resolve) => setTimeout(resolve, 500));
      return seen;
    });
    expect(w.fired).toEqual([]);
    expect(violations).toEqual(expect.arrayContaining(['script-src-attr', 'script-src-elem']));
  });
});

test.describe('with the policy ignored by the browser (the sanitiser alone)', () => {
  test.use({ bypassCSP: true });
  for (const name of Object.keys(PAYLOADS)) {
    test(`${name} stored in every content runs nothing for root`, async ({ page }) => {
      const w = await watch(page);
      await storePayload(page, name);
      await openPagesAndCheck(page, w, name);
    });
  }
});

test('admin content keeps its formatting; links to new windows get noopener; About frames http(s) only', async ({ page }) => {
  await signInRoot(page);
  const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  await setOptions(page, {
    HomePageContent: [
      '# Welcome heading',
      '',
      '- first item',
      '- second item',
      '',
      '| Model | Price |',
      '| --- | --- |',
      '| gpt | 1 |',
      '',
      `![pixel](${pixel})`,
      '',
      '[docs](https://example.com/docs)',
      '',
      '<a href="https://example.com/new" target="_blank">new window</a>',
    ].join('\n'),
    Footer: '<b>Footer</b> <a href="https://example.com/f" target="_blank">footer link</a>',
  });
  await page.goto('/');
  const home = page.locator('.sy-markdown');
  await expect(home.locator('h1')).toHaveText('Welcome heading');
  await expect(home.locator('li')).toHaveCount(2);
  await expect(home.locator('table td').first()).toHaveText('gpt');
  await expect(home.locator('img')).toHaveAttribute('src', pixel);
  await expect(home.getByRole('link', { name: 'docs' })).toHaveAttribute('href', 'https://example.com/docs');
  const newWindow = home.getByRole('link', { name: 'new window' });
  await expect(newWindow).toHaveAttribute('target', '_blank');
  await expect(newWindow).toHaveAttribute('rel', /noopener/);
  const footer = page.locator('.sy-footer-custom');
  await expect(footer.locator('b')).toHaveText('Footer');
  await expect(footer.getByRole('link', { name: 'footer link' })).toHaveAttribute('rel', /noopener/);

  // A URL is framed; the frame is allowed by the policy.
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await setOptions(page, { About: `${new URL(page.url()).origin}/api/status` });
  await page.goto('/about');
  await expect(page.locator('iframe.sy-content-frame')).toHaveAttribute('src', /\/api\/status$/);
  await expect(page.frameLocator('iframe.sy-content-frame').locator('body')).toContainText('"success":true');
  expect(violations).toEqual([]);
  // Anything else that looks like an address is not framed.
  for (const about of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>']) {
    await setOptions(page, { About: about });
    await page.goto('/about');
    await expect(page.locator('.sy-markdown')).toBeVisible();
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect(page.locator('.sy-markdown a[href^="javascript"], .sy-markdown a[href^="data"]')).toHaveCount(0);
  }
});

test('the main screens load without a policy violation', async ({ page }) => {
  const violations: string[] = [];
  await page.exposeBinding('__cspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { __cspViolation: (t: string) => Promise<void> }).__cspViolation(`${e.effectiveDirective} ${e.blockedURI} at ${location.pathname}`);
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy|unsafe-eval|unsafe-inline/i.test(m.text())) violations.push(`${m.text()} at ${page.url()}`);
  });
  page.on('pageerror', (err) => violations.push(`page error: ${err.message} at ${page.url()}`));
  // Signing in shows the login page under the same watch.
  await signInRoot(page);
  await setOptions(page, { Footer: '', HomePageContent: '', About: '', Notice: '' });
  const screens = [
    '/',
    '/about',
    '/pricing',
    '/playground',
    '/personal',
    '/topup',
    '/detail',
    '/token',
    '/token/add',
    '/log',
    '/channel',
    '/channel/add',
    '/user',
    '/redemption',
    '/midjourney',
    '/task',
    '/setting',
    '/setting?tab=operation',
    '/setting?tab=system',
    '/setting?tab=other',
  ];
  for (const path of screens) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('.sy-content')).toBeVisible();
  }
  // Saving a settings section runs its schema validator (compiled in the browser).
  await page.goto('/setting?tab=other');
  const content = page.getByTestId('section-other-content');
  await content.getByLabel('系统名称').fill('Switchyard CSP');
  await page.getByTestId('save-other-content').click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '保存成功' }).first()).toBeVisible();
  await content.getByLabel('系统名称').fill('Switchyard');
  await page.getByTestId('save-other-content').click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '保存成功' }).first()).toBeVisible();
  expect(violations).toEqual([]);
});
