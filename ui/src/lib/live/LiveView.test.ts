import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import type { LiveStatus, MachineRow } from '../api';
import type { LiveBridge } from './session';
import { AppState } from '../app.svelte';
import { fakeApi, machine } from '../../tests/fake-api';
import { encodeFrameForTest } from './frame-test-encoder';
import { stubCanvasContexts } from './canvas-test-stub';

beforeAll(() => {
  stubCanvasContexts();
});

vi.mock('../api', () => ({ api: {}, liveApi: {} }));

const { default: LiveView } = await import('./LiveView.svelte');

// The computer's state comes from the app's one derivation, fed by the machine list.
async function computers(availability: MachineRow['availability'] = 'online', canWake = true) {
  const row = { current: machine({ availability, canWake }) };
  const api = fakeApi({ listMachines: vi.fn(async () => [row.current]) });
  const app = new AppState(api);
  await app.refreshConnection();
  return {
    app,
    api,
    /** The list as the Rust core reports it next (MachinesChanged). */
    async listSays(availability: MachineRow['availability']) {
      row.current = { ...row.current, availability };
      await app.refreshMachines();
    },
    set(availability: MachineRow['availability']) {
      row.current = { ...row.current, availability };
    },
  };
}

function fakeBridge() {
  let emit: (viewId: number, status: LiveStatus) => void = () => {};
  let deliver: (message: unknown) => void = () => {};
  const bridge: LiveBridge = {
    onStatus: vi.fn(async (cb) => {
      emit = cb;
      return () => {};
    }),
    open: vi.fn(async (_machine: string, onFrame: (message: unknown) => void) => {
      deliver = onFrame;
      // A status can arrive before open() answers: it must not be lost.
      emit(3, { state: 'connecting', attempt: 2 });
      return 3;
    }),
    close: vi.fn(async () => null),
    ack: vi.fn(async () => null),
    pause: vi.fn(async () => null),
    resume: vi.fn(async () => null),
  };
  return {
    bridge,
    emit: (id: number, s: LiveStatus) => emit(id, s),
    /** A frame of the connection: the screen's size, drawn. */
    frame: (seq: number) =>
      deliver(encodeFrameForTest({
        seq, connection: 1, arrivedAtMs: 0, sentAtMs: 0,
        ops: [{ kind: 'instruction', opcode: 'size', args: ['0', '64', '40'] }],
      })),
  };
}

describe('LiveView', () => {
  it('says why it is not live: reconnecting with the reason, then asleep with Wake', async () => {
    const { bridge, emit, frame } = fakeBridge();
    const view = render(LiveView, { machineId: 'm1', computers: (await computers()).app, bridge });
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

    // Connected, but nothing drawn yet: a blank (black) screen would say nothing.
    emit(3, { state: 'connected', connection: 1, width: 1280, height: 800 });
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveAttribute('data-state', 'connecting'));
    expect(screen.getByTestId('live-overlay')).toHaveTextContent('Connecting to the screen…');
    expect(screen.getByTestId('live-view')).toHaveAttribute('data-phase', 'connecting');
    frame(1);
    await waitFor(() => expect(screen.queryByTestId('live-overlay')).not.toBeInTheDocument());
    expect(screen.getByTestId('live-view')).toHaveAttribute('data-phase', 'live');

    view.unmount();
    expect(bridge.close).toHaveBeenCalledWith(3);
  });

  it('pauses the stream while the window is hidden and resumes when shown', async () => {
    const { bridge } = fakeBridge();
    render(LiveView, { machineId: 'm1', computers: (await computers()).app, bridge });
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
    render(LiveView, { machineId: 'm1', computers: (await computers()).app, bridge });
    await waitFor(() => expect(bridge.open).toHaveBeenCalled());
    emit(3, { state: 'reconnecting', code: 'live_token_expired', words: "The live view's link expired.", retryInMs: 900 });
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveTextContent('Reconnecting in 1 s'));
    emit(3, { state: 'connecting', attempt: 2 });
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveTextContent('Reconnecting to the live screen'));
    expect(screen.getByTestId('live-reason')).toHaveTextContent('link expired');
  });

  it('wakes an asleep computer with progress and watches again once the list says it is online', async () => {
    const { bridge, emit } = fakeBridge();
    const c = await computers();
    render(LiveView, { machineId: 'm1', computers: c.app, bridge });
    await waitFor(() => expect(bridge.open).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    // The stream learns first: every place says asleep before the list is read again.
    c.set('asleep');
    emit(3, { state: 'ended', code: 'live_asleep', words: 'The computer is asleep. Wake it to watch.' });
    expect(c.app.status('m1').state).toBe('asleep');
    await waitFor(() => expect(c.api.listMachines).toHaveBeenCalledTimes(2));
    c.set('starting');
    await fireEvent.click(await screen.findByTestId('live-wake'));
    expect(c.api.wakeMachine).toHaveBeenCalledWith('m1');
    await waitFor(() => expect(screen.getByTestId('live-overlay')).toHaveAttribute('data-state', 'waking'));
    expect(screen.getByTestId('live-overlay')).toHaveTextContent('Waking the computer');
    expect(screen.getByTestId('live-view')).toHaveAttribute('data-computer-state', 'waking');
    // Not watched again until the list says it is online.
    await c.listSays('starting');
    expect(bridge.open).toHaveBeenCalledTimes(1);
    await c.listSays('online');
    await waitFor(() => expect(bridge.open).toHaveBeenCalledTimes(2));
    // Straight from waking to connecting: never "asleep" again on the way.
    expect(screen.getByTestId('live-view')).toHaveAttribute('data-phase', 'connecting');
  });

  it('says a computer that cannot be woken so, with no Wake', async () => {
    const { bridge, emit } = fakeBridge();
    const c = await computers('asleep', false);
    render(LiveView, { machineId: 'm1', computers: c.app, bridge });
    await waitFor(() => expect(bridge.open).toHaveBeenCalled());
    await Promise.resolve();
    emit(3, { state: 'ended', code: 'live_asleep', words: 'The computer is asleep. Wake it to watch.' });
    await waitFor(() => expect(screen.getByTestId('live-cannot-wake')).toHaveTextContent('web portal'));
    expect(screen.queryByTestId('live-wake')).toBeNull();
  });

  it('makes the window full screen, and Escape or the button leaves it', async () => {
    const { bridge } = fakeBridge();
    const setWindowFullScreen = vi.fn(async () => null);
    render(LiveView, { machineId: 'm1', computers: (await computers()).app, bridge, setWindowFullScreen });
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
    render(LiveView, { machineId: 'm1', computers: (await computers()).app, bridge, setWindowFullScreen });
    await fireEvent.click(screen.getByTestId('live-fullscreen'));
    await waitFor(() => expect(screen.getByTestId('live-notice')).toHaveTextContent('fills the window'));
  });
});
