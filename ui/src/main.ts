import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { api } from './lib/api';
import { AppState } from './lib/app.svelte';

const state = new AppState(api);
const target = document.getElementById('app');
if (target) mount(App, { target, props: { app: state } });
void state.start();

// A failure before the page can show anything still says something.
window.addEventListener('error', (e) => {
  if (!document.querySelector('.app')) {
    document.body.textContent = `Porthole could not start its window: ${e.message}`;
  }
});
