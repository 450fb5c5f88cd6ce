import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/svelte';
import LiveView from './LiveView.svelte';
import type { LiveStatus } from '../api';
import type { LiveBridge } from './session';

function fakeBridge() {
  let emit: (viewId: number, status: LiveStatus) => void = () => {};
  const bridge: LiveBridge = {
    onStatus: vi.fn(async (cb) => {
      emit = cb;
      return () => {};
    }),
    open: vi.fn(async () => {
      // A status can arrive before open() answers: it must not be lost.
      emit(3, { state: 'connecting', attempt: 2 });
      return 3;
    }),
    close: vi.fn(async () => null),
    ack: vi.fn(async () => null),
    pause: vi.fn(async () => null),
    resume: vi.fn(async () => null),
  };
  return { bridge, emit: (id: number, s: LiveStatus) => emit(id, s) };
}

describe('LiveView', () => {
  it('says why it is not live: reconnecting with the reason, then asleep with Wake', async () => {
    const { bridge, emit } = fakeBridge();
    const view = render(LiveView, { machineId: 'm1', bridge });
    await waitFor(() => expect(bridge.open).toHaveBeenCalledWith('m1', expect.any(Function)));
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveTextContent('Reconnecting'));

    emit(3, { state: 'reconnecting', code: 'token_expired', words: "The live view's link expired.", retryInMs: 2000 });
    await waitFor(() => expect(screen.getByTestId('live-reason')).toHaveTextContent("link expired"));
    expect(screen.getByTestId('live-overlay')).toHaveTextContent('Trying again in 2 s');

    // Another view's news is not this one's.
    emit(4, { state: 'ended', code: 'stopped', words: 'The live view was closed.' });
    emit(3, { state: 'ended', code: 'asleep', words: 'The computer is asleep. Wake it to watch.' });
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveAttribute('data-state', 'asleep'));
    expect(screen.getByTestId('live-wake')).toBeInTheDocument();

    emit(3, { state: 'connected', connection: 1, width: 1280, height: 800 });
    await waitFor(() => expect(screen.queryByTestId('live-overlay')).not.toBeInTheDocument());

    view.unmount();
    expect(bridge.close).toHaveBeenCalledWith(3);
  });

  it('pauses the stream while the window is hidden and resumes when shown', async () => {
    const { bridge } = fakeBridge();
    render(LiveView, { machineId: 'm1', bridge });
    await waitFor(() => expect(bridge.open).toHaveBeenCalled());
    await Promise.resolve();
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(bridge.pause).toHaveBeenCalledWith(3);
    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(bridge.resume).toHaveBeenCalledWith(3);
    hidden.mockRestore();
  });
});
