// Each restore step, once reached, puts the keyboard where the person acts next: its first field
// (the chosen radio button if there is one), or, for the progress and the result, the progress bar
// and the result's heading. The first step is left alone: opening the screen focuses the screen's
// own heading. A step whose field arrives with data (the generations list waits for restic) is
// watched until the field appears; focus is never taken from where the person has put it meanwhile.
import { useEffect, useRef, type RefObject } from 'react';

const FIELD = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';
const HEADING = 'h2, progress, [role="progressbar"]';

function targetIn(root: HTMLElement, heading: boolean): HTMLElement | null {
  const found = heading ? root.querySelector(HEADING) : (root.querySelector('input:checked:not([disabled])') ?? root.querySelector(FIELD));
  return found instanceof HTMLElement ? found : null;
}

/** Focus is free to move when it is nowhere (the clicked button went with its step) or still in the step. */
function focusIsFree(root: HTMLElement): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || (root.contains(active) && !active.matches(FIELD));
}

export function useFocusOnStep(step: string, root: RefObject<HTMLElement | null>, headingSteps: readonly string[]): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const el = root.current;
    if (el === null) return;
    const heading = headingSteps.includes(step);
    const tryFocus = (): boolean => {
      if (!focusIsFree(el)) return true;
      const target = targetIn(el, heading);
      if (target === null) return false;
      if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus();
      return true;
    };
    if (tryFocus()) return;
    const watch = new MutationObserver(() => {
      if (tryFocus()) watch.disconnect();
    });
    watch.observe(el, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [step, root, headingSteps]);
}
