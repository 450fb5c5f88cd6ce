import { describe, expect, it } from 'vitest';
import { tryTasks } from './try-tasks';

describe('tryTasks', () => {
  it('takes a list of quoted tasks out of the answer', () => {
    const answer = '**This practice computer can look up the weather. Try one of these:**\n\n- “Look up the weather in Lisbon”\n- “Find the price of a coffee grinder”\n- “Add up the table in my expenses sheet”\n\n- You added: hurry';
    const { body, tries } = tryTasks(answer);
    expect(tries).toEqual(['Look up the weather in Lisbon', 'Find the price of a coffee grinder', 'Add up the table in my expenses sheet']);
    expect(body).toBe('**This practice computer can look up the weather. Try one of these:**\n\n\n- You added: hurry');
  });

  it('leaves an answer without such a list as it is', () => {
    const answer = '**Paris: 21 °C**\n\n- “a quote” alone is not a list of tasks\n- plain item';
    expect(tryTasks(answer)).toEqual({ body: answer, tries: [] });
  });
});
