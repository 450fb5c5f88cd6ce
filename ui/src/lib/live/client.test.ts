import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './client';
import { BridgeTunnel } from './tunnel';
import { stubCanvasContexts } from './canvas-test-stub';
import { recordWindowListeners, stopRecordingWindowListeners } from './window-test-listeners';

beforeEach(() => {
  stubCanvasContexts();
});

afterEach(() => {
  vi.restoreAllMocks();
  stopRecordingWindowListeners();
});

describe('createClient', () => {
  it('leaves nothing on the window once let go, so an old screen can be freed', () => {
    const listeners = recordWindowListeners();
    const made = createClient(new BridgeTunnel());
    // guacamole-common-js 1.5.0's Display listens for the window's blur: what held old screens.
    expect(listeners()).toContain('blur');
    made.dispose();
    expect(listeners()).toEqual([]);
  });

  it('gives the window its own addEventListener back, even when making the client fails', () => {
    recordWindowListeners();
    const own = window.addEventListener;
    createClient(new BridgeTunnel()).dispose();
    expect(window.addEventListener).toBe(own);
    expect(() => createClient(null as never)).toThrow();
    expect(window.addEventListener).toBe(own);
  });

  it('can be let go of twice without harm', () => {
    const made = createClient(new BridgeTunnel());
    made.dispose();
    expect(() => made.dispose()).not.toThrow();
  });
});
