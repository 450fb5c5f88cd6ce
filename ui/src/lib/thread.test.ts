import { describe, expect, it } from 'vitest';
import { groupSteps } from './thread';

describe('groupSteps', () => {
  it('folds consecutive agent steps and keeps messages apart', () => {
    const blocks = groupSteps([
      { kind: 'user', text: 'hi', joined: false },
      { kind: 'narration', text: 'Opening' },
      { kind: 'progress', text: 'Typing' },
      { kind: 'answer', text: 'Done' },
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(['item', 'steps', 'item']);
    expect(blocks[1].kind === 'steps' && blocks[1].items.length).toBe(2);
  });
});
