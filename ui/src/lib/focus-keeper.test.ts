import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepFocus } from './focus-keeper';

// The keeper acts after the page changed: MutationObserver callbacks run as microtasks.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('keepFocus', () => {
  let stop: () => void;
  beforeEach(() => {
    document.body.innerHTML = `
      <button id="before">Before</button>
      <div id="dialog"><p id="row"><button id="revoke">Revoke…</button></p><input id="name" /></div>`;
    stop = keepFocus(document);
  });
  afterEach(() => stop());

  it('moves the focus to the nearest control still there when the focused one is removed', async () => {
    document.getElementById('revoke')!.focus();
    document.getElementById('row')!.remove();
    await settle();
    expect(document.activeElement?.id).toBe('name');
  });

  it('gives the focus back to a button once it is no longer disabled', async () => {
    const revoke = document.getElementById('revoke') as HTMLButtonElement;
    revoke.focus();
    // As WebKit does: the focus leaves the button as it turns disabled.
    revoke.blur();
    revoke.disabled = true;
    await settle();
    expect(document.activeElement).toBe(document.body);
    revoke.disabled = false;
    await settle();
    expect(document.activeElement).toBe(revoke);
  });

  it('leaves the focus alone after a click elsewhere', async () => {
    document.getElementById('revoke')!.focus();
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    (document.activeElement as HTMLElement).blur();
    document.getElementById('row')!.remove();
    await settle();
    expect(document.activeElement).toBe(document.body);
  });
});

describe('keepFocus and a confirmation', () => {
  it('moves the focus to what took the place of the focused button', async () => {
    document.body.innerHTML = `<div id="buttons"><button id="pause">Pause</button><button id="delete">Delete…</button></div>`;
    const stop = keepFocus(document);
    document.getElementById('delete')!.focus();
    const confirm = document.createElement('span');
    confirm.innerHTML = '<button id="yes">Delete</button><button id="no">Keep</button>';
    document.getElementById('delete')!.replaceWith(confirm);
    await settle();
    expect(document.activeElement?.id).toBe('yes');
    stop();
  });
});
