import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import type { LiveStatus, MachineRow } from '../api';
import type { LiveBridge } from './session';

// Waking asks the service, then watches the machine list until the computer is online.
const availability: Array<MachineRow['availability']> = [];
const wakeMachine = vi.fn(async () => null);
vi.mock('../api', () => ({
  api: {
    wakeMachine: (...a: unknown[]) => wakeMachine(...(a as [])),
    listMachines: async () => [{ machineId: 'm1', availability: availability.shift() ?? 'online' }],
  },
  liveApi: {},
}));

const { default: LiveView } = await import('./LiveView.svelte');

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

    emit(3, { state: 'reconnecting', code: 'live_token_expired', words: "The live view's link expired.", retryInMs: 2000 });
    await waitFor(() => expect(screen.getByTestId('live-reason')).toHaveTextContent("link expired"));
    expect(screen.getByTestId('live-overlay')).toHaveTextContent('Reconnecting in 2 s');

    // Another view's news is not this one's.
    emit(4, { state: 'ended', code: 'live_stopped', words: 'The live view was closed.' });
    emit(3, { state: 'ended', code: 'live_asleep', words: 'The computer is asleep. Wake it to watch.' });
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

  it('keeps the reason on screen while it reconnects', async () => {
    const { bridge, emit } = fakeBridge();
    render(LiveView, { machineId: 'm1', bridge });
    await waitFor(() => expect(bridge.open).toHaveBeenCalled());
    emit(3, { state: 'reconnecting', code: 'live_token_expired', words: "The live view's link expired.", retryInMs: 900 });
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveTextContent('Reconnecting in 1 s'));
    emit(3, { state: 'connecting', attempt: 2 });
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveTextContent('Reconnecting to the live screen'));
    expect(screen.getByTestId('live-reason')).toHaveTextContent('link expired');
  });

  it('wakes an asleep computer with progress and watches again once it is online', async () => {
    const { bridge, emit } = fakeBridge();
    render(LiveView, { machineId: 'm1', bridge });
    await waitFor(() => expect(bridge.open).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    emit(3, { state: 'ended', code: 'live_asleep', words: 'The computer is asleep. Wake it to watch.' });
    availability.push('asleep', 'starting');
    await fireEvent.click(await screen.findByTestId('live-wake'));
    expect(wakeMachine).toHaveBeenCalledWith('m1');
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveAttribute('data-state', 'waking'));
    expect(screen.getByTestId('live-overlay')).toHaveTextContent('Waking the computer');
    // Not watched again until the list says it is online (two polls a second apart).
    expect(bridge.open).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(bridge.open).toHaveBeenCalledTimes(2), { timeout: 4000 });
  });

  it('makes the window full screen, and Escape or the button leaves it', async () => {
    const { bridge } = fakeBridge();
    const setWindowFullScreen = vi.fn(async () => null);
    render(LiveView, { machineId: 'm1', bridge, setWindowFullScreen });
    const button = screen.getByTestId('live-fullscreen');
    await fireEvent.click(button);
    expect(setWindowFullScreen).toHaveBeenLastCalledWith(true);
    expect(button).toHaveTextContent('Leave full screen');
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(setWindowFullScreen).toHaveBeenLastCalledWith(false);
    expect(button).toHaveTextContent('Full screen');
    await fireEvent.click(button);
    await fireEvent.click(button);
    expect(setWindowFullScreen.mock.calls).toEqual([[true], [false], [true], [false]]);
  });

  it('says quietly that full screen is unavailable when the window cannot change', async () => {
    const { bridge } = fakeBridge();
    const setWindowFullScreen = vi.fn(async () => {
      throw new Error('no');
    });
    render(LiveView, { machineId: 'm1', bridge, setWindowFullScreen });
    await fireEvent.click(screen.getByTestId('live-fullscreen'));
    await waitFor(() => expect(screen.getByTestId('live-notice')).toHaveTextContent('fills the window'));
  });
});
