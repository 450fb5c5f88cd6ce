import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/svelte';
import CodeEditor from './CodeEditor.svelte';

// jsdom lays nothing out; CodeMirror measures text ranges for its cursor and selection.
Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

describe('the console code editor', () => {
  it('keeps one editor while its text changes, so typing keeps the caret and focus', async () => {
    const { container, rerender } = render(CodeEditor, { value: 'machine.windows()', onRun: () => {} });
    // CodeMirror is loaded when the editor is first shown.
    await vi.waitFor(() => expect(container.querySelector('.cm-editor')).not.toBeNull());
    const editor = container.querySelector('.cm-editor');
    expect(container.querySelector('.cm-content')?.textContent).toBe('machine.windows()');

    await rerender({ value: 'machine.close("Browser")', onRun: () => {} });
    expect(container.querySelector('.cm-content')?.textContent).toBe('machine.close("Browser")');
    expect(container.querySelectorAll('.cm-editor')).toHaveLength(1);
    expect(container.querySelector('.cm-editor')).toBe(editor);
  });
});
