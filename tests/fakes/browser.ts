// Debian's chromium driven by playwright-core (no browser download), a fresh profile per launch (playwright makes a temporary one), and screenshots
// saved as test artifacts under test-results/screenshots/.
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SHOTS = resolve(import.meta.dirname, "../../test-results/screenshots");

export const hasChromium = (): boolean => existsSync(CHROMIUM);

export interface TestBrowser {
  browser: Browser;
  /**
   * a new window with its own storage (a new person at the table); `device` emulates a phone (scale, touch, mobile
   * viewport)
   */
  page(
    url: string,
    viewport?: { width: number; height: number },
    device?: Pick<BrowserContextOptions, "deviceScaleFactor" | "isMobile" | "hasTouch">,
  ): Promise<Page>;
  close(): Promise<void>;
}

/** How the tests start chromium: quiet, headless, no first-run noise. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
  // the table's voice plays without a click first (a person at the table clicks once; a test cannot)
  "--autoplay-policy=no-user-gesture-required",
];

export async function launch(): Promise<TestBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async page(url, viewport = { width: 1400, height: 900 }, device = {}) {
      const ctx = await browser.newContext({ viewport, ...device });
      contexts.push(ctx);
      const p = await ctx.newPage();
      // below vitest's 30 s: a step that hangs fails there, named, instead of running on into the next test
      p.setDefaultTimeout(20_000);
      const errors: string[] = [];
      p.on("pageerror", (e) => errors.push(e.message));
      (p as Page & { errors: string[] }).errors = errors;
      await p.goto(url);
      return p;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
    },
  };
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Errors thrown in the page so far. */
export const pageErrors = (p: Page): string[] => (p as Page & { errors?: string[] }).errors ?? [];
