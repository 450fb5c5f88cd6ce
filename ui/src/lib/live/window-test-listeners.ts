// Test helper: which listeners code leaves on the window.

let restore = () => {};

export function stopRecordingWindowListeners() {
  restore();
  restore = () => {};
}

/**
 * Records what is added to and removed from the window from here on; returns the types of
 * listeners still on it. Own data properties, so code that swaps the methods works as in a
 * browser (the test environment's window has accessors there).
 */
export function recordWindowListeners() {
  const live = new Map<unknown, string>();
  const own = {
    add: Object.getOwnPropertyDescriptor(window, 'addEventListener'),
    remove: Object.getOwnPropertyDescriptor(window, 'removeEventListener'),
  };
  const add = window.addEventListener.bind(window);
  const remove = window.removeEventListener.bind(window);
  Object.defineProperty(window, 'addEventListener', {
    configurable: true,
    writable: true,
    value: (type: string, listener: EventListener, options?: boolean | AddEventListenerOptions) => {
      live.set(listener, type);
      add(type, listener, options);
    },
  });
  Object.defineProperty(window, 'removeEventListener', {
    configurable: true,
    writable: true,
    value: (type: string, listener: EventListener, options?: boolean | EventListenerOptions) => {
      live.delete(listener);
      remove(type, listener, options);
    },
  });
  restore = () => {
    for (const [name, descriptor] of [
      ['addEventListener', own.add],
      ['removeEventListener', own.remove],
    ] as const) {
      if (descriptor) Object.defineProperty(window, name, descriptor);
      else delete (window as unknown as Record<string, unknown>)[name];
    }
  };
  return () => [...live.values()];
}
