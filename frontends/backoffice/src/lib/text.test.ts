import { describe, expect, it } from '@jest/globals';
import { fold, matchesSearch } from './text';

describe('search matching', () => {
  it('ignores case and accents', () => {
    expect(fold('José Suárez')).toBe('jose suarez');
    expect(matchesSearch('suarez', ['Fernando Suárez Díaz'])).toBe(true);
    expect(matchesSearch('SUÁREZ', ['fernando suarez'])).toBe(true);
  });

  it('matches any field, skips missing ones, and an empty query matches everything', () => {
    expect(matchesSearch('example.test', [undefined, 'ana@example.test'])).toBe(true);
    expect(matchesSearch('nadie', ['Ana', null])).toBe(false);
    expect(matchesSearch('   ', [])).toBe(true);
  });
});
