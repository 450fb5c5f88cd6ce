import { describe, expect, it } from 'vitest';
import { allInputs, fromText, toText } from './inputs';

describe('run form inputs', () => {
  const city = { name: 'city', defaultValue: 'Paris' };
  const days = { name: 'days', defaultValue: 3 };
  const opts = { name: 'opts', defaultValue: { metric: true } };

  it('keeps each value the type of its default', () => {
    expect(fromText('5', days)).toBe(5);
    expect(fromText('five', days)).toBe('five');
    expect(fromText('Rome', city)).toBe('Rome');
    expect(fromText('{"metric":false}', opts)).toEqual({ metric: false });
    expect(toText(opts.defaultValue)).toBe('{"metric":true}');
  });

  it('passes every parameter, untouched ones with their defaults', () => {
    expect(allInputs([city, days, opts], { city: 'Rome' })).toEqual({ city: 'Rome', days: 3, opts: { metric: true } });
  });
});
