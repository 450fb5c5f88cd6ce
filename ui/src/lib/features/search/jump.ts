// Opening a search hit at its line: the thread draws an answer before the steps that led to it
// (thread.ts's groupSteps), so the line's place on screen is found by walking the blocks the
// same way, then the nth thread line is opened (its folded steps unfolded), scrolled to and
// marked for a moment.
import type { ThreadItem } from '../../api';
import { groupSteps } from '../../thread';

/** Where item `index` of `items` is drawn among the thread's lines, or -1. */
export function drawnAt(items: ThreadItem[], index: number): number {
  const wanted = items[index];
  if (!wanted) return -1;
  const order: ThreadItem[] = [];
  for (const block of groupSteps(items)) {
    if (block.kind === 'steps') order.push(...block.items);
    else if (block.kind === 'answer') order.push(block.item, ...block.steps);
    else order.push(block.item);
  }
  return order.indexOf(wanted);
}

/** Shows line `index` of the thread in `root`; false when it is not drawn (yet). */
export function showLine(root: ParentNode, items: ThreadItem[], index: number): boolean {
  const at = drawnAt(items, index);
  const line = at < 0 ? undefined : root.querySelectorAll<HTMLElement>('[data-testid="thread-item"]')[at];
  if (!line) return false;
  for (let folded = line.closest('details'); folded; folded = folded.parentElement?.closest('details') ?? null) {
    folded.open = true;
  }
  line.scrollIntoView?.({ block: 'center' });
  line.classList.add('search-found');
  line.dataset.found = 'true';
  setTimeout(() => {
    line.classList.remove('search-found');
    delete line.dataset.found;
  }, 4000);
  return true;
}
