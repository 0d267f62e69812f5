import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { MAX_PAGE, assertFilterFields, filterIds, filterStrings, likeEscape, parseListQuery } from './listQuery.js';
import { MSG } from './messages.js';

/** The ValidationError a call throws, or fails the test when it throws nothing. */
function refusal(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error('expected a ValidationError, nothing was thrown');
}

describe('parseListQuery: the ra-data-simple-rest parameters', () => {
  it('reads sort, range and filter as react-admin sends them', () => {
    expect(
      parseListQuery({ sort: '["paid_at","DESC"]', range: '[0,24]', filter: '{"status":"未確認","store_id":[1,2]}' }),
    ).toEqual({ sort: ['paid_at', 'DESC'], range: [0, 24], filter: { status: '未確認', store_id: [1, 2] } });
  });

  it('gives an empty filter and no sort or range when nothing is sent', () => {
    expect(parseListQuery({})).toEqual({ filter: {} });
    expect(parseListQuery({ sort: '', range: '', filter: '' })).toEqual({ filter: {} });
  });

  it('accepts the order in any case and defaults it to ASC', () => {
    expect(parseListQuery({ sort: '["amount","desc"]' }).sort).toEqual(['amount', 'DESC']);
    expect(parseListQuery({ sort: '["amount","asc"]' }).sort).toEqual(['amount', 'ASC']);
    expect(parseListQuery({ sort: '["amount"]' }).sort).toEqual(['amount', 'ASC']);
  });

  it('accepts a one-row page and the largest page', () => {
    expect(parseListQuery({ range: '[5,5]' }).range).toEqual([5, 5]);
    expect(parseListQuery({ range: `[0,${MAX_PAGE - 1}]` }).range).toEqual([0, MAX_PAGE - 1]);
  });

  it.each([
    ['sort', '["paid_at","DESC"'],
    ['range', '[0,24'],
    ['filter', '{status:1}'],
    ['filter', "{'status':'x'}"],
  ])('refuses malformed JSON in %s', (name, text) => {
    const err = refusal(() => parseListQuery({ [name]: text }));
    expect(err.errors).toEqual([{ field: name, message: MSG.badListParam(name) }]);
    expect(err.errors[0].message).toContain(name);
  });

  it.each(['["paid_at","UP"]', '["paid_at",1]', '[1,"ASC"]', '"paid_at"', '{"field":"paid_at"}', '[]'])(
    'refuses the sort %s',
    (sort) => {
      expect(refusal(() => parseListQuery({ sort })).errors[0].field).toBe('sort');
    },
  );

  it.each(['[-1,10]', '[0,-1]', '[10,5]', '[0]', '[0,1,2]', '[0.5,10]', '["0","10"]', '{"from":0}', '[0,null]'])(
    'refuses the range %s',
    (range) => {
      expect(refusal(() => parseListQuery({ range })).errors[0].field).toBe('range');
    },
  );

  it('refuses a page larger than the limit', () => {
    expect(refusal(() => parseListQuery({ range: `[0,${MAX_PAGE}]` })).errors[0].field).toBe('range');
    expect(refusal(() => parseListQuery({ range: '[0,1000000000]' })).errors[0].field).toBe('range');
  });

  it.each(['[1,2]', '"text"', '42', 'null', 'true'])('refuses the non-object filter %s', (filter) => {
    expect(refusal(() => parseListQuery({ filter })).errors[0].field).toBe('filter');
  });

  it('refuses a parameter sent twice (an array, not text)', () => {
    expect(refusal(() => parseListQuery({ sort: ['["a","ASC"]', '["b","ASC"]'] })).errors[0].field).toBe('sort');
    expect(refusal(() => parseListQuery({ range: ['[0,1]', '[0,2]'] })).errors[0].field).toBe('range');
  });
});

describe('filter helpers', () => {
  it('assertFilterFields refuses a field the resource does not know, naming it', () => {
    expect(() => assertFilterFields({ status: 'x', q: '1' }, ['status', 'q'])).not.toThrow();
    const err = refusal(() => assertFilterFields({ stauts: 'x' }, ['status']));
    expect(err.errors[0]).toEqual({ field: 'filter', message: MSG.badFilterField('stauts') });
    expect(err.errors[0].message).toContain('stauts');
  });

  it('filterIds reads one id or a list of ids', () => {
    expect(filterIds({ store_id: 2 }, 'store_id')).toEqual([2]);
    expect(filterIds({ store_id: '2' }, 'store_id')).toEqual([2]);
    expect(filterIds({ store_id: [1, '3'] }, 'store_id')).toEqual([1, 3]);
    expect(filterIds({}, 'store_id')).toBeUndefined();
    expect(filterIds({ store_id: '' }, 'store_id')).toBeUndefined();
    expect(filterIds({ store_id: null }, 'store_id')).toBeUndefined();
  });

  it('filterIds refuses what is not an id', () => {
    for (const v of ['abc', 0, -1, [1, 'x'], 1.5]) {
      expect(refusal(() => filterIds({ store_id: v }, 'store_id')).errors[0].message).toBe(
        MSG.badListParam('filter.store_id'),
      );
    }
  });

  it('filterStrings reads one value or a list, each checked', () => {
    const isStatus = (s: string) => ['未確認', '已入帳', '未入帳'].includes(s);
    expect(filterStrings({ status: '未確認' }, 'status', isStatus)).toEqual(['未確認']);
    expect(filterStrings({ status: ['未確認', '未入帳'] }, 'status', isStatus)).toEqual(['未確認', '未入帳']);
    expect(filterStrings({}, 'status', isStatus)).toBeUndefined();
    expect(refusal(() => filterStrings({ status: '已點收' }, 'status', isStatus)).errors[0].field).toBe('filter');
    expect(refusal(() => filterStrings({ status: [1] }, 'status', isStatus)).errors[0].field).toBe('filter');
  });

  it('likeEscape escapes LIKE wildcards so a search matches them literally', () => {
    expect(likeEscape('50%_off\\')).toBe('50\\%\\_off\\\\');
    expect(likeEscape('12345')).toBe('12345');
  });
});
