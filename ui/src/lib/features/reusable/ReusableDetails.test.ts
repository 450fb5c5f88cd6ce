import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import type { ReusableTask } from '../../api';
import ReusableDetails from './ReusableDetails.svelte';

// jsdom lays nothing out; CodeMirror (the learned code) measures text ranges.
Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

describe('ReusableDetails', () => {
  it('shows the same finding twice, and two parameters of one name, rather than failing', () => {
    const task: ReusableTask = {
      id: 'r1', scope: 'demo', title: 'Weather lookup', template: 'Weather in {{city}}',
      parameters: [{ name: 'city', defaultValue: 'Paris' }, { name: 'city', defaultValue: 'Lyon' }],
      code: 'async function main({ city }) { return city; }',
      errors: ['`city` is never read.', '`city` is never read.'],
      warnings: ['It assumes the browser is open.', 'It assumes the browser is open.'],
      learnId: 'learn_1', sourceTurns: ['turn_1'], createdAt: null, changes: null, failedRuns: [],
    };
    render(ReusableDetails, { task });
    expect(within(screen.getByTestId('reusable-errors')).getAllByRole('listitem')).toHaveLength(2);
    expect(within(screen.getByTestId('reusable-warnings')).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByTestId('reusable-parameters')).toHaveTextContent('Lyon');
  });
});
