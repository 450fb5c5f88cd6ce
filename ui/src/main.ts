import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { api, languageApi, layoutApi, windowApi, type StartProblem } from './lib/api';
import { loadLanguage, speak, t } from './lib/i18n';
import { AppState } from './lib/app.svelte';
import { Layout } from './lib/layout.svelte';

// Where launch time goes (BENCHMARKS.md, "Footprint"): the page's script has run this far.
performance.mark('porthole-script');

// The window is shown once mounted (below); the launch benchmark checks that its first paint
// came after this.
document.addEventListener(
  'visibilitychange',
  () => {
    if (document.visibilityState === 'visible') performance.mark('porthole-visible');
  },
  { once: true },
);

// A failure before the page can show anything still says something.
function showFatal(message: string) {
  if (!document.querySelector('.app')) {
    document.body.textContent = t('shell.fatal', { message });
  }
}
window.addEventListener('error', (e) => showFatal(e.message));
window.addEventListener('unhandledrejection', (e) => showFatal(String(e.reason)));

// A start that could not open the person's files shows only what went wrong and where
// (src-tauri/src/navigation/start_problem.rs): nothing else was opened to ask.
async function showStartProblem(problem: StartProblem): Promise<void> {
  await loadLanguage(problem.language).catch(() => {});
  speak(problem.language);
  const { default: Problem } = await import('./lib/components/StartProblem.svelte');
  const target = document.getElementById('app');
  if (target) mount(Problem, { target, props: { problem, quit: windowApi.quitAfterStartProblem } });
  void windowApi.firstScreenReady().catch(() => {});
}

async function startApp(): Promise<void> {
  // Everything the first screen shows is asked for at once, before mounting: the person's
  // language (the first words are theirs), the layout, and the connection with its machine list.
  // Mounting first and filling in afterwards made WebKit lay out and paint the whole window twice
  // before the list was seen (BENCHMARKS.md, "Footprint"). A slow service does not hold the window
  // blank: after FIRST_SCREEN_WAIT_MS it mounts with what it has and the list follows.
  const FIRST_SCREEN_WAIT_MS = 250;
  const state = new AppState(api);
  const layout = new Layout(layoutApi);
  const started = state.start();
  const firstScreen = Promise.race([
    state.firstScreen,
    started.catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS)),
  ]);
  const language = languageApi.get().then(
    async (answer) => {
      // Words missing from a chunk that failed to load are English's, never no window at all.
      await loadLanguage(answer.speaking).catch(() => {});
      speak(answer.speaking);
    },
    // English, the catalog's own language.
    () => {},
  );
  await Promise.all([language, layout.load(), firstScreen]);
  // The sidebar starts as the window's width wants it, not opened and folded a frame later.
  layout.setWindowWidth(window.innerWidth);

  const target = document.getElementById('app');
  try {
    if (target) mount(App, { target, props: { app: state, layout } });
    // Whether the window was already on the screen: it should not be yet (tests/e2e/first_show.rs).
    performance.mark('porthole-mounted', { detail: { visibility: document.visibilityState } });
  } catch (e) {
    showFatal(String(e));
  } finally {
    // The window was made hidden: it appears now, onto a page ready to draw (with the list, or
    // with what went wrong).
    void windowApi.firstScreenReady().catch(() => {});
    // While the native side maps the window, lay the page out now rather than after the window
    // is shown: a hidden page is not laid out until it is, and then the first frame waits for it.
    document.body.getBoundingClientRect();
    performance.mark('porthole-laid-out');
  }
  // A start that failed after the first screen still says so.
  started.catch((e) => showFatal(String(e)));
}

// Rust marks the page's address when the start had a problem
// (src-tauri/src/navigation/start_problem.rs): a start without one asks nothing more.
const problem = new URLSearchParams(location.search).has('start-problem')
  ? await windowApi.startProblem().catch(() => null)
  : null;
if (problem) await showStartProblem(problem);
else await startApp();
