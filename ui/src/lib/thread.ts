// Groups the agent's running commentary (narration, progress, tool activity) into blocks
// that fold away, so messages and answers stand out.
import type { ThreadItem } from './api';

export type Block = { kind: 'steps'; items: ThreadItem[] } | { kind: 'item'; item: ThreadItem };

const STEP_KINDS = new Set(['narration', 'progress', 'tool', 'toolFailed', 'status']);

export function groupSteps(items: ThreadItem[]): Block[] {
  const blocks: Block[] = [];
  for (const item of items) {
    const last = blocks[blocks.length - 1];
    if (STEP_KINDS.has(item.kind)) {
      if (last?.kind === 'steps') last.items.push(item);
      else blocks.push({ kind: 'steps', items: [item] });
    } else {
      blocks.push({ kind: 'item', item });
    }
  }
  return blocks;
}
