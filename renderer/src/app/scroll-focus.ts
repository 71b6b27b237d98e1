// A table that is wider than a phone-wide window scrolls inside its card (styles.css); a keyboard
// user must be able to reach it to scroll it (WCAG 2.1.1; axe: scrollable-region-focusable). So
// while a table (or a .table-wrap) in <main> actually scrolls, it is a tab stop; once it fits
// again it is not, so a wide window has no empty tab stops. Watched on resize and on every change.
const MARK = 'data-scroll-focus';

function update(root: HTMLElement): void {
  for (const el of root.querySelectorAll<HTMLElement>('table, .table-wrap')) {
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    if (scrolls && !el.hasAttribute('tabindex')) {
      el.tabIndex = 0;
      el.setAttribute(MARK, '');
    } else if (!scrolls && el.hasAttribute(MARK)) {
      el.removeAttribute('tabindex');
      el.removeAttribute(MARK);
    }
  }
}

/** Starts watching `root`; returns the function that stops. */
export function watchScrollFocus(root: HTMLElement): () => void {
  let queued = false;
  const soon = (): void => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      update(root);
    });
  };
  const resize = new ResizeObserver(soon);
  resize.observe(root);
  const changes = new MutationObserver(soon);
  changes.observe(root, { childList: true, subtree: true, characterData: true });
  soon();
  return () => {
    resize.disconnect();
    changes.disconnect();
  };
}
