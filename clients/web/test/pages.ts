// What the browser tests look for on a page: text left in English, accessibility violations,
// moves made with the keyboard.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "../../typescript/test/server.js";
import { LOCALE_DIR, po } from "./catalogue.js";

export const LEGAL = "main button.legal:not([disabled])";
const AXE = join(ROOT, "clients", "web", "node_modules", "axe-core", "axe.min.js");

/** Every piece of text a person sees: text nodes of rendered elements (all options of a shown
 * menu) and the placeholders of shown fields. */
export function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const shown = (el: Element): boolean =>
      el.closest("option") !== null ? el.closest("select")?.checkVisibility() === true : el.checkVisibility();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      if (text && node.parentElement !== null && shown(node.parentElement)) out.push(text);
    }
    for (const input of document.querySelectorAll<HTMLInputElement>("input[placeholder]")) {
      if (input.checkVisibility()) out.push(input.placeholder);
    }
    return out;
  });
}

/** English words of the server's catalogue (the page's own and the server's labels) that the
 * locale words differently, as texts and as template patterns, compared without case (so that
 * an id shown as it is, "colour valat", counts as English too). */
function englishOnly(locale: string): { texts: Set<string>; patterns: RegExp[] } {
  const key = (e: { context: string; id: string }): string => `${e.context}\u0004${e.id}`;
  const theirs = new Map(po.readCatalogue(LOCALE_DIR, locale).map((e) => [key(e), e.strings]));
  const texts = new Set<string>();
  const patterns: RegExp[] = [];
  // the locale's own words are never English: "double" (a French choice) where English says
  // "Double" for a Königrufen kontra, or a template whose only word is one of them ("{game}
  // table", where "table" is French too)
  const words = new Set([...theirs.values()].flat().map((s) => s.toLowerCase()));
  for (const entry of po.readCatalogue(LOCALE_DIR, "en")) {
    const own = theirs.get(key(entry)) ?? [];
    for (const english of entry.strings) {
      if (!english || own.some((o) => o.toLowerCase() === english.toLowerCase())) continue;
      if (!english.includes("{") && !words.has(english.toLowerCase())) texts.add(english.toLowerCase());
      const fixed = english.replace(/\{\w+\}/g, "");
      if (english.includes("{") && /[A-Za-z]{3}/.test(fixed) && !words.has(fixed.trim().toLowerCase())) {
        const body = english.split(/\{\w+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+");
        patterns.push(new RegExp(`^${body}$`, "i"));
      }
    }
  }
  return { texts, patterns };
}

/** The page's texts that are English where the locale has its own words. */
export async function englishLeft(page: Page, locale: string): Promise<string[]> {
  const { texts, patterns } = englishOnly(locale);
  const left: string[] = [];
  for (const text of await visibleTexts(page)) {
    const pieces = [text, ...text.split(/[:·–,()←]/).map((s) => s.trim())];
    if (pieces.some((p) => texts.has(p.toLowerCase())) || patterns.some((p) => p.test(text))) left.push(text);
  }
  return left;
}

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run(ctx: Document): Promise<unknown> } }).axe.run(document)) as AxeResult;
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

/** Tab to the next legal move (a bid button or a card; one matching `wanted`) and press
 * Enter; false when none is reached. Checks that the focused move shows a focus ring. */
export async function moveByKeyboard(page: Page, wanted = LEGAL): Promise<boolean> {
  for (let i = 0; i < 150; i++) {
    await page.keyboard.press("Tab");
    const focus = await page.evaluate(({ legal, wanted }) => {
      const el = document.activeElement;
      if (el === null || !el.matches(legal) || !el.matches(wanted)) return null;
      const style = getComputedStyle(el);
      return { outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    }, { legal: LEGAL, wanted });
    if (focus === null) continue;
    assert.ok(focus.outline !== "none" && focus.width >= 2, `a visible focus ring (${JSON.stringify(focus)})`);
    await page.keyboard.press("Enter");
    return true;
  }
  return false;
}
