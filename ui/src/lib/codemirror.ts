// CodeMirror 6, in a chunk of its own: loaded the first time code is shown (the console, a
// step's code, a reusable task's code), so the window's first screen does not parse it.
export { EditorView, basicSetup } from 'codemirror';
export { keymap } from '@codemirror/view';
export { EditorState, Prec } from '@codemirror/state';
export { javascript } from '@codemirror/lang-javascript';
