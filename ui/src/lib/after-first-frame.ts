// Work that should not hold up the first screen: it runs once the window has drawn a frame
// (a frame callback, then a task, so the frame is painted first). A window not on the screen
// draws no frames, so after `latestMs` it runs anyway.
export function afterFirstFrame(work: () => void, latestMs = 1000): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    work();
  };
  let task: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (task = setTimeout(once, 0)));
  const fallback = setTimeout(once, latestMs);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(task);
    clearTimeout(fallback);
  };
}
