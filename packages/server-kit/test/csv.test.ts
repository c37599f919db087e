import { csvCell, csvLine } from '../src/csv';

describe('CSV cells for spreadsheets', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['=1+1', "'=1+1"],
    ['+34 600 000 000', "'+34 600 000 000"],
    ['-2+3', "'-2+3"],
    ['-1,5e3', `"'-1,5e3"`],
    ['-19,00)', `"'-19,00)"`],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\r=1', `"'\r=1"`],
  ])('neutralises a cell that a spreadsheet would run as a formula: %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['Dra. Núñez', 'Dra. Núñez'],
    ["O'Brien", "O'Brien"],
    ['a;b', '"a;b"'],
    ['a,b', '"a,b"'],
    ['dice "hola"', '"dice ""hola"""'],
    ['línea\nnueva', '"línea\nnueva"'],
    ['2026-06-01T08:30:00.000Z', '2026-06-01T08:30:00.000Z'],
    ['doctor/appointments/:id', 'doctor/appointments/:id'],
    ['-19,00', '-19,00'],
    ['1234,50', '1234,50'],
    ['-3.5', '-3.5'],
  ])('leaves ordinary text readable and quotes what needs it: %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes empty cells for missing values and ends lines with CRLF', () => {
    expect(csvLine(['a', null, undefined, 3])).toBe('a;;;3\r\n');
  });
});
