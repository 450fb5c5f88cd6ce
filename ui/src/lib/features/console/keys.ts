// Keys that make a retried learn, repair or check return the earlier result instead of
// paying twice: one key per attempt the person starts, reused when they press "Try again".
export function newIdempotencyKey(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  return `porthole-${random}`;
}
