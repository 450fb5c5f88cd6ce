// A task put in the message box from elsewhere in the window (an example to try, offered by
// the first-run card or by an answer): the composer takes the words, focused, and the person
// sends or changes them. Nothing is sent for them.
class ComposerFill {
  text = $state<string | null>(null);
}

export const composerFill = new ComposerFill();

export function fillComposer(text: string): void {
  composerFill.text = text;
}
