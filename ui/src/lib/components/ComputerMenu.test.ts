import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ComputerMenu from './ComputerMenu.svelte';
import { machine } from '../../tests/fake-api';

describe('ComputerMenu', () => {
  it('offers the console only with developer tools on, and only for a cloud computer', async () => {
    const onconsole = vi.fn();
    const onsettings = vi.fn();
    const view = render(ComputerMenu, { machine: machine({ cloud: true }), developerTools: false, onconsole, onsettings });
    await userEvent.click(screen.getByTestId('computer-menu'));
    expect(screen.queryByTestId('menu-console')).toBeNull();
    await userEvent.click(screen.getByTestId('menu-settings'));
    expect(onsettings).toHaveBeenCalled();
    // Picking closes the menu.
    expect(screen.queryByTestId('computer-menu-items')).toBeNull();
    expect(screen.getByTestId('computer-menu')).toHaveAttribute('aria-expanded', 'false');
    // So the next click on ⋯ opens it again, visibly (it is not left open unseen).
    await userEvent.click(screen.getByTestId('computer-menu'));
    expect(screen.getByTestId('computer-menu-items')).toBeInTheDocument();
    expect(screen.getByTestId('computer-menu')).toHaveAttribute('aria-expanded', 'true');
    view.unmount();

    render(ComputerMenu, { machine: machine({ cloud: true }), developerTools: true, onconsole, onsettings });
    await userEvent.click(screen.getByTestId('computer-menu'));
    await userEvent.click(screen.getByTestId('menu-console'));
    expect(onconsole).toHaveBeenCalled();
  });

  it('closes with Escape and gives the keyboard back to its button', async () => {
    render(ComputerMenu, { machine: machine(), developerTools: false, onconsole: () => {}, onsettings: () => {} });
    await userEvent.click(screen.getByTestId('computer-menu'));
    expect(screen.getByTestId('menu-settings')).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('computer-menu-items')).toBeNull();
    expect(screen.getByTestId('computer-menu')).toHaveFocus();
  });
});
