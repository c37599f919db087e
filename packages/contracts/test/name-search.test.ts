import { searchKeysOf, searchQueryOf } from '../src/name-search';

/** Whether a stored document is found: it has the looked-up key, and its texts match. */
const finds = (search: string, texts: string[], phone?: string) => {
  const query = searchQueryOf(search);
  const keyed = query.lookup === undefined || searchKeysOf({ texts, phone }).includes(query.lookup);
  return keyed && query.matches({ texts, phone });
};

describe('search keys and queries', () => {
  const maria = ['María José García-Núñez', 'MJ.Garcia@Example.es'];

  it('finds a name by the start of any of its words, whatever the accents, case and order', () => {
    for (const search of ['maria', 'MAR', 'garcía', 'nuñez', 'garcia maria', 'José  García', 'j', 'ga'])
      expect([search, finds(search, maria)]).toEqual([search, true]);
  });

  it('does not find what is inside a word, or a word the name lacks', () => {
    // Every word in one text: the name, or the e-mail address.
    for (const search of ['arcia', 'maria lopez', 'ez', 'garciaz', 'nunezz', 'maria example'])
      expect([search, finds(search, maria)]).toEqual([search, false]);
  });

  it('finds an e-mail address by the start of its parts, and whole', () => {
    for (const search of ['mj', 'mj.garcia', 'example', 'mj.garcia@example.es', 'EXAMPLE.ES'])
      expect([search, finds(search, maria)]).toEqual([search, true]);
  });

  it('finds a phone from the start of its national number, or whole with its country code', () => {
    for (const search of [
      '612',
      '612 34',
      '+34 612',
      '0034 612 345 678',
      '+34612345678',
      '(612) 345-678',
      '6',
    ])
      expect([search, finds(search, maria, '34612345678')]).toEqual([search, true]);
    for (const search of ['345 678', '4612', '+44 612', '34612'])
      expect([search, finds(search, maria, '34612345678')]).toEqual([search, false]);
    expect(finds('612', maria)).toBe(false);
  });

  it('looks a word up by a stored key: its first five characters, or three', () => {
    expect(searchQueryOf('garcía').lookup).toBe('garci');
    expect(searchQueryOf('gar').lookup).toBe('gar');
    expect(searchQueryOf('ma gar').lookup).toBe('gar');
    expect(searchQueryOf('ma').lookup).toBeUndefined();
    expect(searchQueryOf('+34 612 345').lookup).toBe('61234');
    expect(searchQueryOf('612 345 6').lookup).toBe('6123456');
    expect(searchQueryOf('612 345 678').lookup).toBe('612345678');
    expect(searchKeysOf({ texts: maria, phone: '34612345678' }).sort()).toEqual(
      [
        'mar',
        'maria',
        'jos',
        'gar',
        'garci',
        'nun',
        'nunez',
        'exa',
        'examp',
        '612',
        '61234',
        '6123456',
        '612345678',
      ].sort(),
    );
  });

  it('looks for nothing in a text without letters or digits: it finds nothing', () => {
    for (const search of ['.*', ' ( ) ', '+']) {
      expect(searchQueryOf(search).empty).toBe(true);
      expect(finds(search, maria, '34612345678')).toBe(false);
    }
  });
});
