// The composer in German: the service's `auto` model is named in the person's language (the
// service names it in English), the models it names itself keep their names.
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Composer from './Composer.svelte';
import { AppState } from '../app.svelte';
import { conversation, fakeApi, machine } from '../../tests/fake-api';
import { speak } from '../i18n';

describe('Composer in German', () => {
  afterEach(() => speak('en'));

  it('names the automatic model in German and the service’s own models as the service does', async () => {
    speak('de');
    const state = new AppState(fakeApi());
    state.conversation = conversation();
    state.models = [
      { id: 'auto', name: 'Automatic', tier: 'balanced', costTier: '$', allowed: true },
      { id: 'v/big', name: 'Big', tier: 'reasoning', costTier: '$$$', allowed: true },
    ];
    render(Composer, { app: state, machine: machine() });
    expect(screen.getByTestId('send-button')).toHaveTextContent('Senden');
    await userEvent.click(screen.getByTestId('composer-more'));
    const options = () => [...screen.getByTestId('model-picker').querySelectorAll('option')].map((o) => o.textContent);
    expect(options()).toEqual(['Automatisch', 'Big · Kostet am meisten']);
    expect(screen.getByTestId('model-cost-words')).toHaveTextContent('Der Dienst wählt das Modell für jede Aufgabe.');

    speak('en');
    flushSync();
    expect(options()).toEqual(['Automatic', 'Big · Costs the most']);
  });
});
