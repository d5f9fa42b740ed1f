import { QUERY_LIMITS } from '../limits';

/** The OpenAPI description of every `search` parameter (spec 1 "Filter parameter search", DECISIONS §4). */
export const SEARCH_DESCRIPTION =
  'Filter expression in the service query language (spec 1), case-sensitive: `field` operator value, `,` = AND, `|` = OR ' +
  '(binds tighter), parentheses group. Operators: `:` contains (strings; equals for other types), `=`, `≠`, `∉`, `^` starts with, ' +
  '`>` `≥` `<` `≤`, `∈` in set. Extension: `~` contains ignoring case (strings only), e.g. `name~summer` matches "Summer sale". ' +
  'Encode `,` `|` `(` `)` inside a value (`%2C` `%7C` `%28` `%29`); an unescaped `(` in a value is a syntax error. ' +
  `At most ${QUERY_LIMITS.searchLength} characters and ${QUERY_LIMITS.searchDepth} nested parentheses.`;

/** An example `search` for the OpenAPI document: names containing "lobby" (any case) that carry the tag `entrance`. */
export const SEARCH_EXAMPLE = 'name~lobby,tags:entrance';
