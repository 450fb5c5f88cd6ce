// An answer may end its first part with tasks to try, each alone on a list line in quotes
// (the Demo says so of a task it cannot act out: "Try one of these:" and three tasks). The
// window shows them as buttons that put the task in the message box, not as text to copy.
const TRY = /^\s*[-*]\s+“([^”\n]+)”\s*$/;

export function tryTasks(text: string): { body: string; tries: string[] } {
  const lines = text.split('\n');
  for (let start = 0; start < lines.length; start++) {
    let end = start;
    while (end < lines.length && TRY.test(lines[end])) end++;
    if (end - start >= 2) {
      const tries = lines.slice(start, end).map((l) => (TRY.exec(l) as RegExpExecArray)[1].trim());
      const body = [...lines.slice(0, start), ...lines.slice(end)].join('\n').trim();
      return { body, tries };
    }
  }
  return { body: text, tries: [] };
}
