import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { api, languageApi, layoutApi } from './lib/api';
import { speak, t } from './lib/i18n';
import { AppState } from './lib/app.svelte';
import { Layout } from './lib/layout.svelte';

// Where launch time goes (BENCHMARKS.md, "Footprint"): the page's script has run this far.
performance.mark('porthole-script');

// A failure before the page can show anything still says something.
function showFatal(message: string) {
  if (!document.querySelector('.app')) {
    document.body.textContent = t('shell.fatal', { message });
  }
}
window.addEventListener('error', (e) => showFatal(e.message));
window.addEventListener('unhandledrejection', (e) => showFatal(String(e.reason)));

// The page's first words are in the person's language: ask Rust before mounting (one local
// call; English if it cannot answer).
try {
  speak((await languageApi.get()).speaking);
} catch {
  // English, the catalog's own language.
}

const state = new AppState(api);
const layout = new Layout(layoutApi);
const target = document.getElementById('app');
try {
  if (target) mount(App, { target, props: { app: state, layout } });
  performance.mark('porthole-mounted');
  void layout.load();
  void state.start();
} catch (e) {
  showFatal(String(e));
}
