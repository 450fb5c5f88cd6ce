import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { composerOptions } from './options.svelte';
import ComposerAdvanced from './ComposerAdvanced.svelte';

afterEach(() => {
  composerOptions.advancedOpen = false;
  composerOptions.outputSchema = '';
});

describe('the answer format', () => {
  it('leads with the success criteria; the JSON Schema waits folded under "Technical details"', async () => {
    composerOptions.advancedOpen = true;
    render(ComposerAdvanced);
    const details = screen.getByTestId('output-schema-details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    // Nothing about a schema in the person's way: only inside the folded part.
    const panel = screen.getByTestId('advanced-panel');
    const outside = Array.from(panel.children).filter((c) => c !== details).map((c) => c.textContent).join(' ');
    expect(outside).toContain('Success criteria');
    expect(outside).not.toMatch(/schema/i);
    expect(panel.firstElementChild).not.toBe(details);

    await userEvent.click(screen.getByTestId('output-schema-toggle'));
    expect(details.open).toBe(true);
    await userEvent.type(screen.getByTestId('output-schema'), '{{"type": "object"}');
    expect(composerOptions.outputSchema).toBe('{"type": "object"}');
  });

  it('is open when a schema is already set, so it is never hidden while it applies', () => {
    composerOptions.advancedOpen = true;
    composerOptions.outputSchema = '{"type": "object"}';
    render(ComposerAdvanced);
    expect((screen.getByTestId('output-schema-details') as HTMLDetailsElement).open).toBe(true);
  });
});
