import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ScalarField } from './resource';

/**
 * Folder paths (spec 2 "File folder" / "File": `fileFolderPath | string | computed full path`; the device
 * and content folder paths follow the same rule). A folder hierarchy stores a materialised path: the
 * uuid[] of folder ids from the root down (GIN-indexed), so the recursive search `{path}:{id}` is one
 * `path @> array[id]` predicate. On the wire the path is one string: those ids joined by `/`, root first
 * (`<rootId>/<folderId>/…`). Ids rather than names: they never change on a rename and cannot contain `/`.
 */
const FOLDER_PATH_SEPARATOR = '/';

/** The searchable (`:` = has this ancestor), selectable, unsortable path field over a uuid[] column. */
export function folderPathField(column: AnyPgColumn | SQL): ScalarField {
  return { kind: 'scalar', type: 'path', sql: column, sortable: false };
}

/**
 * The wire string of a stored path. Drivers answer uuid[] as a JS array (also inside json_build_object);
 * the PostgreSQL text form `{a,b}` is accepted too. Anything else is passed through.
 */
export function folderPathToWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.join(FOLDER_PATH_SEPARATOR);
  if (typeof value === 'string' && value.startsWith('{') && value.endsWith('}')) {
    const inner = value.slice(1, -1);

    return inner === '' ? '' : inner.split(',').join(FOLDER_PATH_SEPARATOR);
  }

  return value;
}

/** The folder ids of a wire path, root first (for services and clients that walk it). */
export function folderPathIds(path: string): string[] {
  return path === '' ? [] : path.split(FOLDER_PATH_SEPARATOR);
}
