import { describe, expect, it } from 'vitest';
import { uniqueKeys } from './keys';

describe('uniqueKeys', () => {
  it('keeps ids that are unique as they are', () => {
    expect(uniqueKeys(['a', 'b', 'c'], (x) => x)).toEqual(['a', 'b', 'c']);
  });

  it('gives repeats and missing ids keys of their own, never one already taken', () => {
    const ids = ['a', 'a', 'a#2', null, '#3', 'a'];
    const keys = uniqueKeys(ids, (x) => x);
    expect(new Set(keys).size).toBe(ids.length);
    expect(keys[0]).toBe('a');
  });
});
