// The shortcuts sheet (Ctrl+/), opened from the keyboard anywhere in the window.
class ShortcutsSheet {
  open = $state(false);
}

export const shortcutsSheet = new ShortcutsSheet();
