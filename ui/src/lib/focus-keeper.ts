// Keeps the keyboard's place when what had the focus goes away under it. A button that turns
// itself into a confirmation, a row removed, a chip taken away, a button disabled while its
// work runs: the browser then drops the focus on the page, and the next Tab starts over at
// the top of the window (or behind an open dialog). Here the focus goes instead to what took
// its place (the confirmation's first button), else to the nearest place still there, and back to a button disabled for a moment once it is usable
// again; a click elsewhere (the person moving on) ends it.

const FOCUSABLE = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

function usable(el: Element): el is HTMLElement {
  return (
    el instanceof HTMLElement &&
    el.isConnected &&
    !el.hasAttribute('disabled') &&
    !el.closest('[inert], [hidden]') &&
    // Not folded away (in a closed <details>, under display: none). jsdom lays nothing out.
    (el.getClientRects().length > 0 || navigator.userAgent.includes('jsdom'))
  );
}

/** The first usable control inside `root`. */
function firstInside(root: Element): HTMLElement | null {
  for (const el of root.querySelectorAll(FOCUSABLE)) {
    if (usable(el)) return el;
  }
  return null;
}

/** Watches `doc` for the focus falling to the page; returns what stops watching. */
export function keepFocus(doc: Document = document): () => void {
  // What had the focus last, and the elements around it then (nearest first).
  let last: HTMLElement | null = null;
  let around: Element[] = [];
  // The controls beside it then: one that takes its place (a confirmation) is new.
  let beside = new Set<Element>();

  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof HTMLElement)) return;
    last = event.target;
    around = [];
    for (let el = last.parentElement; el && el !== doc.body; el = el.parentElement) around.push(el);
    beside = new Set(last.parentElement?.querySelectorAll(FOCUSABLE) ?? []);
  };
  // A click puts the focus where the person wants it, the page included.
  const onPointer = () => {
    last = null;
  };

  const repair = () => {
    if (!last || (doc.activeElement && doc.activeElement !== doc.body)) return;
    if (last.isConnected) {
      // Disabled (or folded away) for a while: back on it once it can be used again.
      if (usable(last)) last.focus();
      return;
    }
    const parent = around[0];
    const instead = parent?.isConnected
      ? Array.from(parent.querySelectorAll(FOCUSABLE)).find((el) => !beside.has(el) && usable(el))
      : undefined;
    if (instead instanceof HTMLElement) {
      instead.focus();
      return;
    }
    for (const el of around) {
      const next = el.isConnected ? firstInside(el) : null;
      if (next) {
        next.focus();
        return;
      }
    }
  };
  // WebKit lets go of a control that turns disabled without any change to the page.
  const onFocusOut = (event: FocusEvent) => {
    if (event.relatedTarget === null) setTimeout(repair);
  };

  const observer = new MutationObserver(repair);
  observer.observe(doc.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled', 'open', 'hidden'] });
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  doc.addEventListener('pointerdown', onPointer, true);
  return () => {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
    doc.removeEventListener('pointerdown', onPointer, true);
  };
}
