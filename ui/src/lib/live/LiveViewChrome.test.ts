import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import type { LiveBridge } from './session';

vi.mock('../api', () => ({ api: {}, liveApi: {} }));
const { default: LiveView } = await import('./LiveView.svelte');
const { AppState } = await import('../app.svelte');
const { fakeApi } = await import('../../tests/fake-api');
const computers = () => new AppState(fakeApi());

function bridge(): LiveBridge {
  return {
    onStatus: vi.fn(async () => () => {}),
    open: vi.fn(async () => 3),
    close: vi.fn(async () => null),
    ack: vi.fn(async () => null),
    pause: vi.fn(async () => null),
    resume: vi.fn(async () => null),
  };
}

describe('LiveView chrome', () => {
  it('says it is view only, connecting from the first frame, and "Actual size" in one toolbar', () => {
    render(LiveView, { machineId: 'm1', computers: computers(), bridge: bridge() });
    expect(screen.getByTestId('live-view-only')).toHaveTextContent('View only');
    expect(screen.getByTestId('live-overlay')).toHaveTextContent('Connecting to the screen…');
    expect(screen.getByTestId('live-actual')).toHaveTextContent('Actual size');
    expect(screen.getByRole('toolbar')).toContainElement(screen.getByTestId('live-grid-open'));
  });

  it('offers the frame-rate readout only with developer tools on', () => {
    const view = render(LiveView, { machineId: 'm1', computers: computers(), bridge: bridge() });
    expect(screen.queryByTestId('live-hud-toggle')).toBeNull();
    view.unmount();
    render(LiveView, { machineId: 'm1', computers: computers(), bridge: bridge(), developer: true });
    expect(screen.getByTestId('live-hud-toggle')).toBeInTheDocument();
  });
});
