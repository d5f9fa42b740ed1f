'use client';

import { useCallback, useReducer } from 'react';

/*
 * Undo and redo for an editor's document: every change pushes the previous version; undo and redo walk
 * the stack. Changes of one `group` in a row (typing in one field, nudging one widget with the arrow keys)
 * are one step. Pure reducer (unit-tested) under a hook.
 */

export type History<T> = { past: T[]; present: T; future: T[]; group?: string };
export type HistoryAction<T> =
  { type: 'set'; value: T; group?: string } | { type: 'undo' } | { type: 'redo' } | { type: 'reset'; value: T };

/** At most this many steps back. */
export const HISTORY_LIMIT = 200;

export function historyReducer<T>(state: History<T>, action: HistoryAction<T>): History<T> {
  switch (action.type) {
    case 'set':
      if (Object.is(action.value, state.present)) return state;
      if (action.group !== undefined && action.group === state.group)
        return { past: state.past, present: action.value, future: [], group: action.group };

      return { past: [...state.past, state.present].slice(-HISTORY_LIMIT), present: action.value, future: [], group: action.group };
    case 'undo': {
      const previous = state.past.at(-1);

      return previous === undefined
        ? state
        : { past: state.past.slice(0, -1), present: previous, future: [state.present, ...state.future] };
    }
    case 'redo': {
      const [next, ...rest] = state.future;

      return next === undefined ? state : { past: [...state.past, state.present], present: next, future: rest };
    }
    case 'reset':
      return { past: [], present: action.value, future: [] };
  }
}

export function useHistory<T>(initial: T) {
  const [state, dispatch] = useReducer(historyReducer<T>, { past: [], present: initial, future: [] });

  return {
    value: state.present,
    /** A change; one `group` in a row is one undo step. */
    set: useCallback((value: T, group?: string) => dispatch({ type: 'set', value, group }), []),
    undo: useCallback(() => dispatch({ type: 'undo' }), []),
    redo: useCallback(() => dispatch({ type: 'redo' }), []),
    reset: useCallback((value: T) => dispatch({ type: 'reset', value }), []),
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
  };
}
