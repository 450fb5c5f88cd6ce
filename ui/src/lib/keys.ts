// Keys for keyed `{#each}` blocks over what the service sends. Svelte 5 throws on a repeated
// key, in production too, and nothing stops a service from sending the same id twice; so each
// repeat gets a key of its own, while the first keeps its id (and the component it keys).

/** One unique key per item, in order: its id, or for a repeat (or no id) a variant of it. */
export function uniqueKeys<T>(
  items: readonly T[],
  id: (item: T) => string | number | null | undefined,
): string[] {
  const used = new Set<string>();
  return items.map((item, i) => {
    const base = String(id(item) ?? `#${i}`);
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}#${n}`;
    used.add(key);
    return key;
  });
}
