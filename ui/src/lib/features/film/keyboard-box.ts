// The box a keyboard user hides a part of a picture with (KeyboardArea.svelte): where it
// starts and where each key takes it, as shares of the picture's width and height, the same
// units as an area dragged with the pointer.

export type Box = { x: number; y: number; width: number; height: number };

/** Centred, a quarter of the picture's width and height: somewhere to start from. */
export const START: Box = { x: 0.375, y: 0.375, width: 0.25, height: 0.25 };

/** One press of an arrow, and one with Shift held: fine steps, and few to cross the picture. */
const STEP = 0.02;
const FAR = 0.1;
/** The smallest box: narrower than this is too little to hide anything. */
const SMALLEST = 0.02;

/** The keys the box answers to, for `aria-keyshortcuts` (Control and Meta size it as Alt does:
 * a system may keep one of them for itself, as macOS does Control+arrows). */
export const SHORTCUTS = ['', 'Shift+', 'Alt+', 'Alt+Shift+']
  .flatMap((m) => ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].map((k) => m + k))
  .concat(['Enter', 'Escape'])
  .join(' ');

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

type Keys = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey'>;

/** The box after an arrow key: moved, or with Alt (Control, Meta) sized, Right and Down making
 * it wider and higher from its top left corner; it stays on the picture. Null for any other
 * key. Rounded, so steps add up to the numbers a person reads (0.395, not 0.39499…). */
export function stepped(box: Box, e: Keys): Box | null {
  const arrow = ARROWS[e.key];
  if (!arrow) return null;
  const by = e.shiftKey ? FAR : STEP;
  const [dx, dy] = [arrow[0] * by, arrow[1] * by];
  const next =
    e.altKey || e.ctrlKey || e.metaKey
      ? {
          ...box,
          width: clamp(box.width + dx, SMALLEST, 1 - box.x),
          height: clamp(box.height + dy, SMALLEST, 1 - box.y),
        }
      : { ...box, x: clamp(box.x + dx, 0, 1 - box.width), y: clamp(box.y + dy, 0, 1 - box.height) };
  return { x: round(next.x), y: round(next.y), width: round(next.width), height: round(next.height) };
}

/** The box's place and size as whole percents, to say it in words. */
export function percents(box: Box): { left: number; top: number; width: number; height: number } {
  const p = (v: number) => Math.round(v * 100);
  return { left: p(box.x), top: p(box.y), width: p(box.width), height: p(box.height) };
}

const clamp = (v: number, low: number, high: number) => Math.max(low, Math.min(high, v));
const round = (v: number) => Math.round(v * 1e4) / 1e4;
