// A tiny DOM builder: h("div", { class: "x", onclick }, child, ...).
export type Child = Node | string | number | null | undefined | false;
export type Attrs = {
  [name: string]: string | number | boolean | undefined | ((event: Event) => void);
};

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replace the children of `el`. */
export function fill(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** The attribute that names a control across re-renders (a card, a move, a test id). */
function controlKey(el: Element): string | null {
  for (const name of ["data-card", "data-move", "data-step", "data-testid"]) {
    const value = el.getAttribute(name);
    if (value !== null) return `[${name}="${CSS.escape(value)}"]`;
  }
  return null;
}

/** Run `render` (which replaces the children of `root`) keeping the keyboard focus: on the
 * same control when it is still there, else, when focus was on a move that is gone (a card
 * just played), on the first legal move or the element marked `data-focus-home` (the hand),
 * so keyboard play goes on from there. */
export function keepFocus(root: HTMLElement, render: () => void): void {
  const active = document.activeElement;
  const inside = active !== null && active !== document.body && root.contains(active);
  const key = inside ? controlKey(active) : null;
  const wasMove = inside && active.matches("button.legal");
  render();
  if (!inside) return;
  const again = key === null ? null : root.querySelector<HTMLElement>(key);
  const target = again !== null && !again.matches(":disabled") ? again
    : wasMove ? root.querySelector<HTMLElement>("button.legal:not([disabled])") ?? root.querySelector<HTMLElement>("[data-focus-home]")
      : again;
  target?.focus();
}
