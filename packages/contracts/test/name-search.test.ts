import { searchKeysOf, searchTermsOf, SEARCH_KEY_LENGTH } from '../src/name-search';

/** What a stored document matches: every term of the search is one of its keys. */
const finds = (search: string, texts: string[], phone?: string) => {
  const keys = new Set(searchKeysOf(texts, phone));
  const terms = searchTermsOf(search);
  return terms.length > 0 && terms.every((term) => keys.has(term));
};

describe('search keys and terms', () => {
  const maria = ['María José García-Núñez', 'MJ.Garcia@Example.es'];

  it('finds a name by the start of any of its words, whatever the accents, case and order', () => {
    for (const search of ['maria', 'MAR', 'garcía', 'nuñez', 'garcia maria', 'José  García', 'j'])
      expect([search, finds(search, maria)]).toEqual([search, true]);
  });

  it('does not find what is inside a word, or a word the name lacks', () => {
    for (const search of ['arcia', 'maria lopez', 'ez', 'garciaz'])
      expect([search, finds(search, maria)]).toEqual([search, false]);
  });

  it('finds an e-mail address by the start of its parts, and whole', () => {
    for (const search of ['mj', 'mj.garcia', 'example', 'mj.garcia@example.es', 'EXAMPLE.ES'])
      expect([search, finds(search, maria)]).toEqual([search, true]);
  });

  it('finds a phone from its start, as typed, with or without the country code', () => {
    for (const search of ['612', '612 34', '+34 612', '0034 612 345 678', '34612345678', '(612) 345-678'])
      expect([search, finds(search, maria, '34612345678')]).toEqual([search, true]);
    for (const search of ['345 678', '4612'])
      expect([search, finds(search, maria, '34612345678')]).toEqual([search, false]);
    expect(finds('612', maria)).toBe(false);
  });

  it('looks for nothing in a text without letters or digits: it finds nothing', () => {
    expect(searchTermsOf('.*')).toEqual([]);
    expect(searchTermsOf(' ( ) ')).toEqual([]);
    expect(finds('.*', maria)).toBe(false);
  });

  it('keys long words by their first characters, so a long word still finds itself', () => {
    const long = 'rodriguezfernandezdelavega';
    const keys = searchKeysOf([`${long}@x.es`]);
    expect(Math.max(...keys.map((k) => k.length))).toBe(SEARCH_KEY_LENGTH);
    expect(finds(long, [`${long}@x.es`])).toBe(true);
    expect(finds(`${long.slice(0, SEARCH_KEY_LENGTH)}zzz`, [`${long}@x.es`])).toBe(true);
  });

  it('stores each key once', () => {
    const keys = searchKeysOf(['Ana Ana', 'ana@ana.es'], '34600000000');
    expect(new Set(keys).size).toBe(keys.length);
  });
});
