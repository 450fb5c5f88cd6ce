import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import Answer from './Answer.svelte';

/** Clicks the link named `name` and says whether the answer let the click through. */
function clickGoesOn(name: string): boolean {
  let goesOn = false;
  // Seen after the answer's own handler; then stopped, as the window would (jsdom cannot
  // navigate).
  const seen = (event: Event) => {
    goesOn = !event.defaultPrevented;
    event.preventDefault();
  };
  document.addEventListener('click', seen);
  screen
    .getByRole('link', { name })
    .dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  document.removeEventListener('click', seen);
  return goesOn;
}

describe('Answer', () => {
  it('lets web links go on to the window, which sends them to the browser', () => {
    render(Answer, {
      text: '[docs](https://example.com/docs) and [service](http://127.0.0.1:8080/x)',
    });
    expect(clickGoesOn('docs')).toBe(true);
    expect(clickGoesOn('service')).toBe(true);
  });

  it('follows no other link inside the app', () => {
    render(Answer, { text: '[here](#top), [page](settings.html) and [mail](mailto:a@b.c)' });
    expect(clickGoesOn('here')).toBe(false);
    expect(clickGoesOn('page')).toBe(false);
    expect(clickGoesOn('mail')).toBe(false);
  });
});

describe('Answer with tasks to try', () => {
  it('shows each quoted task as a button that puts it in the message box', async () => {
    const { composerFill } = await import('../composer-fill.svelte');
    render(Answer, {
      text: '**This practice computer can look up the weather. Try one of these:**\n\n- “Look up the weather in Lisbon”\n- “Find the price of a coffee grinder”\n- “Add up the table in my expenses sheet”\n',
      lead: true,
    });
    const tries = screen.getAllByTestId('try-task');
    expect(tries.map((b) => b.textContent)).toEqual([
      'Look up the weather in Lisbon', 'Find the price of a coffee grinder', 'Add up the table in my expenses sheet',
    ]);
    expect(screen.getByTestId('final-answer')).not.toHaveTextContent('“');
    tries[1].click();
    expect(composerFill.text).toBe('Find the price of a coffee grinder');
  });
});
