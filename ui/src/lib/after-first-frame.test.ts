import { afterFirstFrame } from './after-first-frame';

describe('afterFirstFrame', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the work once, after a frame and then a task', () => {
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((f) => frames.push(f));
    const work = vi.fn();
    afterFirstFrame(work);
    expect(work).not.toHaveBeenCalled();
    frames.shift()!(0);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(work).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs it anyway when no frame is drawn (a window not on the screen)', () => {
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 1);
    const work = vi.fn();
    afterFirstFrame(work, 300);
    vi.advanceTimersByTime(299);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('never runs it once cancelled', () => {
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 1);
    const work = vi.fn();
    afterFirstFrame(work, 300)();
    vi.advanceTimersByTime(1000);
    expect(work).not.toHaveBeenCalled();
  });
});
