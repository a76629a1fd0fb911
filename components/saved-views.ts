"use client";

// Saved views of /issues (docs/browser.md): a name for an address, kept in this browser, listed by
// the page and by the palette.

export interface SavedView {
  name: string;
  /** The address: /issues?… */
  href: string;
}

const KEY = "cockpit:saved-views";

export function readSavedViews(): SavedView[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? v.filter((x): x is SavedView => typeof x?.name === "string" && typeof x?.href === "string" && x.href.startsWith("/issues")) : [];
  } catch {
    return [];
  }
}

/** Keep `view` under its name (a view of the same name is replaced); answers the list as kept. */
export function saveView(view: SavedView): SavedView[] {
  const list = [...readSavedViews().filter((v) => v.name !== view.name), view].slice(-50);
  localStorage.setItem(KEY, JSON.stringify(list));
  return list;
}

export function forgetView(name: string): SavedView[] {
  const list = readSavedViews().filter((v) => v.name !== name);
  localStorage.setItem(KEY, JSON.stringify(list));
  return list;
}
