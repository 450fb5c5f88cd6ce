// Test helper: jsdom has no 2D canvas, and guacamole's Display only needs canvas calls that
// succeed (pixels are the e2e tests' business: tests/e2e/live.rs reads them from the real
// window). Every context is one object whose methods do nothing.
import { vi } from 'vitest';

export function stubCanvasContexts() {
  const ctx = new Proxy({}, { get: (_t, key) => (key === 'canvas' ? undefined : () => ({})) });
  return vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ctx as never);
}
