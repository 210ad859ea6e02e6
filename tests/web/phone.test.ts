// @real-time: a real browser against a real hub, a game played in real time
// The table view on the players' phones, in a real browser (Debian's chromium, playwright-core) emulating a phone
// (device scale 2, touch, a mobile viewport) upright, on its side and small, in each language: an 8-player game of the
// second edition in progress (two rounds played by scripted players and guns, the guns aiming at each other), read
// from the rendered page: nothing wider than the screen, the drawing's text big enough to read, every name on screen
// and clear of the others, the aim arrows thick enough to see; the header's menu, the voice muted, a long name whole
// on a tap, a player's console, a count; and a laptop's screen as it was. Screenshots: test-results/screenshots/.
import { TABLE_LANGS } from "@cng/protocol";
import type { MqttClient } from "mqtt";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launch, pageErrors, shot, type TestBrowser } from "../fakes/browser.js";
import type { TestGun } from "../fakes/gun.js";
import { request } from "../fakes/hub.js";
import { closeTable, pairedTable, QUICK, setupOf, type TestHub } from "../fakes/paired-table.js";
import { Players } from "../fakes/players.js";
import { randomScenario, type Scenario } from "../fakes/table-rig.js";
import { realTime } from "../fakes/time.js";

// one name longer than a phone's label holds: it is shortened in the drawing, whole on a tap
const NAMES = ["Ann", "Bartholomew-Maximilian", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"];
const LONG = 1;
const AWAY = [5, 6];
const PLAYED_ROUNDS = 2;
const PHONE = { deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const VIEWPORTS = [
  { name: "portrait", width: 390, height: 844 },
  { name: "landscape", width: 844, height: 390 },
  { name: "small", width: 320, height: 640 },
] as const;
/** the smallest text the drawing may show, and the thinnest arrow, in CSS px (less a float's rounding) */
const MIN_TEXT_PX = 12 - 1e-6;
const MIN_ARROW_PX = 2 - 1e-6;
/** the count's number, CSS px */
const MIN_COUNT_PX = 36;

/** The scenario with the table's names in place of the bots'. */
function renamed(s: Scenario, names: string[]): Scenario {
  const to = (n: string) => names[s.players.indexOf(n)] ?? n;
  const keys = <T>(r: Record<string, T>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [to(k), v]));
  return {
    ...s,
    players: s.players.map(to),
    rounds: s.rounds.map((r) => ({
      bullets: keys(r.bullets),
      aims: Object.fromEntries(Object.entries(r.aims).map(([k, v]) => [to(k), v === null ? null : to(v)])),
      lieDown: r.lieDown.map(to),
      ...(r.privilege
        ? { privilege: { player: to(r.privilege.player), aim: r.privilege.aim === null ? null : to(r.privilege.aim) } }
        : {}),
      picks: r.picks.map(([who, card, discard]) => (discard ? [to(who), card, discard] : [to(who), card])),
      phone: r.phone.map(to),
    })),
  };
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

interface Measure {
  innerWidth: number;
  innerHeight: number;
  scrollWidth: number;
  /** elements whose box reaches past the viewport's right edge */
  wider: string[];
  /** every text and tspan of the drawing with text: its rendered font size and box height, CSS px */
  texts: { text: string; px: number; height: number }[];
  names: (Box & { seat: number; text: string; title: string })[];
  /** the words of the guns that point at nobody */
  words: (Box & { text: string })[];
  arrows: { from: string; to: string; px: number }[];
  /** the count's font size as rendered (it shows a number only during a count) */
  countPx: number;
  svg: Box;
}

/** What the page shows, measured from its rendered boxes. */
function measure(p: Page): Promise<Measure> {
  return p.evaluate(() => {
    const box = (r: DOMRect) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
    const svg = document.querySelector("svg.table-svg") as SVGSVGElement;
    const scale = svg.getScreenCTM()!.a;
    const px = (el: Element) => Number.parseFloat(getComputedStyle(el).fontSize) * scale;
    const own = (el: Element) =>
      Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent)
        .join("")
        .trim();
    const wider: string[] = [];
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.right > innerWidth + 0.5)
        wider.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${el.getAttribute("class") ?? ""}`);
    }
    return {
      innerWidth,
      innerHeight,
      scrollWidth: document.documentElement.scrollWidth,
      wider,
      texts: Array.from(svg.querySelectorAll("text, tspan"))
        .filter((el) => own(el) !== "" && getComputedStyle(el).display !== "none")
        .map((el) => ({ text: own(el), px: px(el), height: el.getBoundingClientRect().height })),
      names: Array.from(svg.querySelectorAll("g.seat")).map((g) => {
        const name = g.querySelector(".name")!;
        return {
          ...box(name.getBoundingClientRect()),
          seat: Number(g.getAttribute("data-seat")),
          text: name.textContent ?? "",
          title: g.querySelector("title")?.textContent ?? "",
        };
      }),
      words: Array.from(svg.querySelectorAll("text.aim-word")).map((w) => ({
        ...box(w.getBoundingClientRect()),
        text: w.textContent ?? "",
      })),
      arrows: Array.from(svg.querySelectorAll("line.aim")).map((l) => ({
        from: l.getAttribute("data-from") ?? "",
        to: l.getAttribute("data-to") ?? "",
        px: Number.parseFloat(getComputedStyle(l).strokeWidth) * scale,
      })),
      countPx: px(svg.querySelector("text.count")!),
      svg: box(svg.getBoundingClientRect()),
    };
  });
}

const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/** Chooses a language with the header's picker, as a person would (through the menu, where the header has one). */
async function chooseLang(p: Page, lang: string): Promise<void> {
  const picker = p.locator("#lang-pick");
  if (!(await picker.isVisible())) await p.locator("#menu").click();
  await picker.selectOption(lang);
  await p.waitForFunction((l) => document.documentElement.lang === l, lang);
  if (await p.locator("#menu[aria-expanded=true]").isVisible()) await p.locator("#menu").click();
}

describe.skipIf(!hasChromium() && !process.env.CI)("the table view on a phone, in chromium", () => {
  let hub: TestHub;
  let host: MqttClient;
  let guns: TestGun[] = [];
  let tokens: string[] = [];
  let players: Players | null = null;
  let b: TestBrowser;
  let game: Scenario;
  const alive = () => (players?.state?.game?.players ?? []).filter((x) => x.alive).length;

  beforeAll(async () => {
    b = await launch();
    ({ hub, host, guns, tokens } = await pairedTable(NAMES.length));
    game = renamed(randomScenario("second", NAMES.length, 5), NAMES);
    // a count slow enough to be seen on a screenshot
    const timingOverrides = { ...QUICK, countPaceMs: 700 };
    const started = await request(
      host,
      hub.table,
      "game.new",
      setupOf(game, { secrets: "console", timing: "fast", timingOverrides }),
      hub.pin,
    );
    if (!started.ok) throw new Error(`game.new: ${JSON.stringify(started)}`);
    // the scripted players play the first rounds; then the game waits for the next round's secret cards
    const scenario = { ...game, rounds: game.rounds.slice(0, PLAYED_ROUNDS) };
    players = new Players(host, hub.table, hub.pin, scenario, guns, { consoles: true, tokens });
    await players.start();
    await realTime.until(() => players!.state?.table?.round === PLAYED_ROUNDS + 1, 90_000, "the rounds played");
    players.stop();
    // the guns aim across the table, each at the seat three along, but two side by side point at nobody
    guns.forEach((g, i) => {
      g.pose = AWAY.includes(i) ? { kind: "away" } : { kind: "aim", target: (i + 3) % NAMES.length };
    });
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    await closeTable({ players, guns, host, hub });
  });

  for (const vp of VIEWPORTS) {
    it(`${vp.name} (${vp.width} × ${vp.height}): no sideways scrolling, readable text, every name, thick arrows, in ${TABLE_LANGS.join(", ")}`, async () => {
      const p = await b.page(`${hub.urls.dashboard}#/table`, { width: vp.width, height: vp.height }, PHONE);
      await expect.poll(() => p.locator("g.seat").count()).toBe(NAMES.length);
      // the voice starts muted on a phone, its toggle at hand
      expect(await p.evaluate(() => (window as unknown as { cngVoice: { muted: boolean } }).cngVoice.muted)).toBe(true);
      expect(await p.locator("#voice-mute").isVisible()).toBe(true);
      expect(await p.locator("#voice-mute").getAttribute("aria-pressed")).toBe("true");
      // the header's pages are in its menu: open, they fit the screen
      expect(await p.locator("nav").isVisible()).toBe(false);
      await p.locator("#menu").tap();
      await p.locator("nav a[href='#/setup']").waitFor();
      const menu = await measure(p);
      await shot(p, `phone-${vp.name}-menu`);
      expect(menu.scrollWidth).toBeLessThanOrEqual(vp.width);
      expect(menu.wider).toEqual([]);
      expect(await p.locator("#lang-pick").isVisible()).toBe(true);
      await p.locator("#menu").tap();
      expect(await p.locator("nav").isVisible()).toBe(false);
      // a long name is shortened, and whole on a tap (and in its title, for a pointer hovering)
      const long = p.locator(`g.seat[data-seat="${LONG}"] .name`);
      expect(await long.textContent()).toMatch(/…$/);
      await long.tap();
      await expect.poll(() => long.textContent()).toBe(NAMES[LONG]);
      const box = (await long.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(vp.width);
      await shot(p, `phone-${vp.name}-whole-name`);
      await long.tap();
      await expect.poll(() => long.textContent()).toMatch(/…$/);
      for (const lang of TABLE_LANGS) {
        await chooseLang(p, lang);
        await expect.poll(() => p.locator("line.aim").count(), { timeout: 10_000 }).toBe(alive());
        const m = await measure(p);
        const smallest = Math.min(...m.texts.map((x) => x.px));
        const summary = {
          viewport: vp.name,
          lang,
          page: m.scrollWidth,
          smallestTextPx: +smallest.toFixed(1),
          smallestText: m.texts.find((x) => x.px === smallest)?.text,
          namesPx: +Math.min(...m.texts.filter((x) => m.names.some((n) => n.text === x.text)).map((x) => x.px)).toFixed(
            1,
          ),
          arrowsPx: +Math.min(...m.arrows.map((a) => a.px)).toFixed(2),
          countPx: +m.countPx.toFixed(1),
          svg: `${Math.round(m.svg.right - m.svg.left)} × ${Math.round(m.svg.bottom - m.svg.top)}`,
        };
        console.log(JSON.stringify(summary));
        await shot(p, `phone-${vp.name}-${lang}`);
        expect(m.innerWidth, "the layout viewport is the phone's").toBe(vp.width);
        expect(m.scrollWidth, `${lang}: the page's width`).toBeLessThanOrEqual(vp.width);
        expect(m.wider, `${lang}: elements past the right edge`).toEqual([]);
        for (const x of m.texts) {
          expect(x.px, `${lang}: "${x.text}"`).toBeGreaterThanOrEqual(MIN_TEXT_PX);
          expect(x.height, `${lang}: "${x.text}"'s box`).toBeGreaterThanOrEqual(MIN_TEXT_PX);
        }
        expect(m.countPx, `${lang}: the count's number`).toBeGreaterThanOrEqual(MIN_COUNT_PX);
        // all eight names on the screen, none over another
        expect(m.names).toHaveLength(NAMES.length);
        for (const n of m.names) {
          expect(n.left, `${lang}: ${n.text}`).toBeGreaterThanOrEqual(0);
          expect(n.right, `${lang}: ${n.text}`).toBeLessThanOrEqual(vp.width);
          expect(n.top, `${lang}: ${n.text}`).toBeGreaterThanOrEqual(0);
          expect(n.bottom, `${lang}: ${n.text}`).toBeLessThanOrEqual(vp.height);
          expect(n.title, `${lang}: seat ${n.seat}'s whole name`).toBe(NAMES[n.seat]);
        }
        for (const [i, a] of m.names.entries())
          for (const c of [...m.names.slice(i + 1), ...m.words])
            expect(overlap(a, c), `${lang}: ${a.text} and ${c.text}`).toBe(0);
        // the guns pointing at nobody say so, side by side, each word clear of the other
        expect(m.words).toHaveLength(AWAY.length);
        expect(overlap(m.words[0]!, m.words[1]!), `${lang}: ${m.words.map((w) => w.text).join(" and ")}`).toBe(0);
        // each seat's other lines (loot, what the player is doing) below the drawing, in full
        expect(await p.locator("#seat-lines li").count()).toBe(NAMES.length);
        expect(await p.locator("#seat-lines").isVisible()).toBe(true);
        expect(await p.locator(`#seat-lines li[data-seat="${LONG}"]`).textContent()).toContain(NAMES[LONG]);
        expect(m.arrows.length).toBeGreaterThan(0);
        for (const a of m.arrows)
          expect(a.px, `${lang}: the arrow ${a.from} → ${a.to}`).toBeGreaterThanOrEqual(MIN_ARROW_PX);
      }
      expect(pageErrors(p)).toEqual([]);
      await p.context().close();
    }, 60_000);
  }

  it("a player's console on a phone says the connection once, and fits the screen", async () => {
    const seat = 3;
    const p = await b.page(
      `${hub.urls.dashboard}#/console?seat=${seat}&token=${tokens[seat]}`,
      { width: 390, height: 844 },
      PHONE,
    );
    await p.locator("#hand").waitFor();
    const live = `live (seat ${seat + 1})`;
    await expect.poll(() => p.locator("#conn").textContent()).toContain(live);
    const saying = await p.evaluate(
      (words) =>
        Array.from(document.querySelectorAll("body *")).filter((el) =>
          Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.includes(words)),
        ).length,
      live,
    );
    expect(saying).toBe(1);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // its language picker shows at once (the console has no pages to fold away)
    expect(await p.locator("#lang-pick").isVisible()).toBe(true);
    await shot(p, "phone-console");
    expect(pageErrors(p)).toEqual([]);
    await p.context().close();
  });

  it("a laptop's screen (1400 × 900) draws the whole table as before: every seat's lines, the arrows, the side panel", async () => {
    const p = await b.page(`${hub.urls.dashboard}#/table`);
    await expect.poll(() => p.locator("g.seat").count()).toBe(NAMES.length);
    await expect.poll(() => p.locator("line.aim").count(), { timeout: 10_000 }).toBe(alive());
    const m = await measure(p);
    console.log(
      JSON.stringify({
        viewport: "laptop",
        page: m.scrollWidth,
        namesPx: +Math.min(...m.texts.filter((x) => m.names.some((n) => n.text === x.text)).map((x) => x.px)).toFixed(
          1,
        ),
        smallestTextPx: +Math.min(...m.texts.map((x) => x.px)).toFixed(1),
        arrowsPx: +Math.min(...m.arrows.map((a) => a.px)).toFixed(2),
        svg: `${Math.round(m.svg.right - m.svg.left)} × ${Math.round(m.svg.bottom - m.svg.top)}`,
      }),
    );
    await shot(p, "laptop-table");
    // the laptop speaks the count
    expect(await p.evaluate(() => (window as unknown as { cngVoice: { muted: boolean } }).cngVoice.muted)).toBe(false);
    expect(m.scrollWidth).toBeLessThanOrEqual(1400);
    // the whole names, and each seat's wounds, money and loot beside it in the drawing
    expect(m.names.map((n) => n.text)).toEqual(NAMES);
    const labels = await p.locator("g.seat text.label").allTextContents();
    expect(labels.filter((l) => /♥|DEAD/.test(l) && /\$/.test(l) && l.includes("cash"))).toHaveLength(NAMES.length);
    for (const a of m.arrows) expect(a.px).toBeGreaterThanOrEqual(MIN_ARROW_PX);
    expect(await p.locator("#step").textContent()).toContain(`Round ${PLAYED_ROUNDS + 1}`);
    expect(await p.locator("#seat-lines").isVisible()).toBe(false);
    await p.locator("#loot").waitFor();
    expect(pageErrors(p)).toEqual([]);
    await p.context().close();
  });

  // (the last: the players play the round on, to its end)
  it("a count on a phone: the number big in the drawing, its words below it", async () => {
    const p = await b.page(`${hub.urls.dashboard}#/table`, { width: 390, height: 844 }, PHONE);
    await expect.poll(() => p.locator("g.seat").count()).toBe(NAMES.length);
    const next = { ...game, rounds: game.rounds.slice(0, PLAYED_ROUNDS + 1) };
    const more = new Players(host, hub.table, hub.pin, next, guns, { consoles: true, tokens });
    await more.start();
    const counting = () => ["1", "2", "3"].includes(document.querySelector("text.count")?.textContent ?? "");
    await p.waitForFunction(counting, undefined, { timeout: 30_000 });
    const m = await measure(p);
    const caption = await p.locator("#count-caption").textContent();
    await shot(p, "phone-count");
    more.stop();
    console.log(JSON.stringify({ countPx: +m.countPx.toFixed(1), caption }));
    expect(m.countPx).toBeGreaterThanOrEqual(MIN_COUNT_PX);
    expect(caption).not.toBe("");
    expect(m.scrollWidth).toBeLessThanOrEqual(390);
    expect(pageErrors(p)).toEqual([]);
    await p.context().close();
  }, 60_000);
});
