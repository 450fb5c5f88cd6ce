import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import TaskUsageList from './TaskUsageList.svelte';

describe('TaskUsageList', () => {
  it('lists every task even when the service gave two the same turn id', () => {
    const usage = { costUsd: 0.02, inputTokens: 100, outputTokens: 20, modelCalls: 1 };
    render(TaskUsageList, {
      tasks: [
        { turnId: 'turn_1', task: 'Find the weather in Lisbon', usage },
        { turnId: 'turn_1', task: 'And in Porto?', usage },
      ],
    });
    const rows = screen.getAllByTestId('usage-task-row');
    expect(rows.map((r) => r.textContent?.includes('Porto'))).toEqual([false, true]);
  });

  it('says "Nothing yet" only while nothing was charged: beside a cost it says why no task is listed', () => {
    const { unmount } = render(TaskUsageList, { tasks: [] });
    expect(screen.getByTestId('usage-tasks-empty').textContent).toContain('Nothing yet');
    unmount();
    render(TaskUsageList, { tasks: [], costed: true });
    const said = screen.getByTestId('usage-tasks-empty').textContent ?? '';
    expect(said).not.toContain('Nothing yet');
    expect(said).toContain('the total above is the service’s');
  });
});
