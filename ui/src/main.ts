import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { api } from './lib/api';
import { AppState } from './lib/app.svelte';

// A failure before the page can show anything still says something.
function showFatal(message: string) {
  if (!document.querySelector('.app')) {
    document.body.textContent = `Porthole could not start its window: ${message}`;
  }
}
window.addEventListener('error', (e) => showFatal(e.message));
window.addEventListener('unhandledrejection', (e) => showFatal(String(e.reason)));

const state = new AppState(api);
const target = document.getElementById('app');
try {
  if (target) mount(App, { target, props: { app: state } });
  void state.start();
} catch (e) {
  showFatal(String(e));
}
