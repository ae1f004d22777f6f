import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvLines, neutralizeFormula } from '~/server/csv';

describe('neutralizeFormula', () => {
  it.each(['=1+1', '+31 10 123', '-2', '@SUM(A1)', '\tTab', '\rReturn'])(
    'when a text cell starts like a formula (%j), then it gets an apostrophe',
    (text) => {
      expect(neutralizeFormula(text)).toBe(`'${text}`);
    },
  );

  it.each(['Amazon.com Services LLC', 'a=b', ' =1', '', "'quoted"])(
    'when a text cell does not start like a formula (%j), then it stays as it is',
    (text) => {
      expect(neutralizeFormula(text)).toBe(text);
    },
  );

  it.each([
    ['WR;=1+2', "WR;'=1+2"],
    ['Acme,@SUM(A1)', "Acme,'@SUM(A1)"],
    ['a;b;-2', "a;b;'-2"],
    ['x\t+1', "x\t'+1"],
    ['=1;=2', "'=1;'=2"],
  ])(
    'when a text cell holds a separator followed by a formula (%j), then the part after it gets an apostrophe too, as a spreadsheet splitting there would start a cell with it',
    (text, guarded) => {
      expect(neutralizeFormula(text)).toBe(guarded);
    },
  );

  it.each(['Miami, FL', 'a;b', 'Box 1; 2 kg', 'WR;1+2'])(
    'when a separator is followed by no formula character (%j), then the text stays as it is',
    (text) => {
      expect(neutralizeFormula(text)).toBe(text);
    },
  );

  it('when a cell is a number, negative ones included, then it stays a number', () => {
    expect(neutralizeFormula(-2.5)).toBe(-2.5);
    expect(neutralizeFormula(1234.567)).toBe(1234.567);
  });
});

describe('csvLines', () => {
  it('when cells hold commas, quotes, line feeds or carriage returns, then they are quoted and read back whole', () => {
    const cells = ['a,b', 'say "hi"', 'two\nlines', 'old\rmac', 'plain'];
    const text = csvLines([cells, ['x', 'y', 'z', 'w', 'v']]);
    expect(text).toBe('"a,b","say ""hi""","two\nlines","old\rmac",plain\r\nx,y,z,w,v\r\n');
    expect(parse(text)).toEqual([cells, ['x', 'y', 'z', 'w', 'v']]);
  });

  it('when numbers are written, then plainly with a dot for decimals', () => {
    expect(csvLines([[1234.567, 0.5, 12, -3]])).toBe('1234.567,0.5,12,-3\r\n');
  });

  it('when a cell split on its semicolon would start a formula, then no part of the line read with ; as the separator starts one', () => {
    const line = csvLines([['1', 'WR;=1+2', 'Acme']]);
    const cells = parse(line, { delimiter: ';', relax_quotes: true })[0] as string[];
    expect(cells.every((cell) => !/^[=+\-@]/.test(cell))).toBe(true);
    expect(parse(line)).toEqual([['1', "WR;'=1+2", 'Acme']]);
  });

  it('when a text would run as a formula, then the line carries it with its apostrophe', () => {
    expect(csvLines([['=cmd|"/c calc"!A0', -1]])).toBe('"\'=cmd|""/c calc""!A0",-1\r\n');
  });
});
