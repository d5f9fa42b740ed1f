import { describe, expect, it } from 'vitest';
import { HISTORY_LIMIT, historyReducer, type History } from './use-history';

const start: History<number> = { past: [], present: 0, future: [] };

describe('historyReducer', () => {
  it('undoes and redoes, and a new change drops what was undone', () => {
    let s = historyReducer(start, { type: 'set', value: 1 });
    s = historyReducer(s, { type: 'set', value: 2 });
    s = historyReducer(s, { type: 'undo' });
    expect(s.present).toBe(1);
    s = historyReducer(s, { type: 'redo' });
    expect(s.present).toBe(2);
    s = historyReducer(s, { type: 'undo' });
    s = historyReducer(s, { type: 'set', value: 5 });
    expect(s).toEqual({ past: [0, 1], present: 5, future: [] });
    expect(historyReducer(s, { type: 'redo' })).toBe(s);
    expect(historyReducer(start, { type: 'undo' })).toBe(start);
  });

  it('keeps at most HISTORY_LIMIT steps and resets', () => {
    let s = start;
    for (let i = 1; i <= HISTORY_LIMIT + 10; i++) s = historyReducer(s, { type: 'set', value: i });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
    expect(historyReducer(s, { type: 'reset', value: 7 })).toEqual({ past: [], present: 7, future: [] });
  });

  it('makes changes of one group in a row one step; another change or an undo ends the group', () => {
    let s = historyReducer(start, { type: 'set', value: 1, group: 'name' });
    s = historyReducer(s, { type: 'set', value: 2, group: 'name' });
    s = historyReducer(s, { type: 'set', value: 3, group: 'name' });
    expect(s.past).toEqual([0]);
    s = historyReducer(s, { type: 'set', value: 4, group: 'size' });
    s = historyReducer(s, { type: 'set', value: 5 });
    s = historyReducer(s, { type: 'set', value: 6 });
    expect(s.past).toEqual([0, 3, 4, 5]);
    s = historyReducer(s, { type: 'set', value: 7, group: 'name' });
    s = historyReducer(s, { type: 'undo' });
    s = historyReducer(s, { type: 'set', value: 8, group: 'name' });
    expect(s.past).toEqual([0, 3, 4, 5, 6]);
    expect(s.present).toBe(8);
  });
});
