import { describe, expect, it } from 'vitest';
import { firstChoice, NONE } from './firstChoice';

const c = (id: number, digits: string) => ({ line: { id, digits } });

describe('the review card’s first choice', () => {
  it('chooses the first candidate when its digits agree, show one typo, or show none', () => {
    expect(firstChoice('12345', [c(7, '900012345'), c(8, '')])).toBe('7');
    expect(firstChoice('12345', [c(7, '***12346')])).toBe('7');
    expect(firstChoice('12345', [c(7, '')])).toBe('7');
  });
  it('chooses nothing when the first candidate shows another account’s digits', () => {
    expect(firstChoice('30303', [c(7, '***58812'), c(8, '')])).toBe('');
  });
  it('chooses 都不是 when there is no candidate', () => {
    expect(firstChoice('12345', [])).toBe(NONE);
  });
});
