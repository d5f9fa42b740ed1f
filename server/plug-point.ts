import type { SQL, SQLWrapper } from 'drizzle-orm';
import { sql } from 'drizzle-orm';

/**
 * A shared mechanism that other modules plug into (teams, tags, file references, quick-filter usages,
 * usage counters, customer statistics). The owning module defines the point; every other module lists
 * its contributions in its manifest (`<module>.module.ts`), and `installModules` (server/composition.ts)
 * puts them in at start-up, so no registration depends on import order and no owner names a module.
 *
 * Readers call `items()`/`get()` when they run, and build SQL through `lazySql`, so a resource's field
 * map compiled at import still sees what is installed later.
 */
export type PlugPoint<T> = {
  readonly name: string;
  /** Everything plugged in: the modules' contributions, then ad hoc additions (tests). */
  items(): readonly T[];
  get(key: string): T | undefined;
  /** Replaces the modules' contributions (idempotent: start-up installs the same list every time). */
  install(items: readonly T[]): void;
  /** Adds one item outside the module list; answers the function that removes it again (tests). */
  add(item: T): () => void;
};

export function definePlugPoint<T>(name: string, keyOf: (item: T) => string): PlugPoint<T> {
  let installed: readonly T[] = [];
  const added: T[] = [];
  const all = () => [...installed, ...added];
  const assertUnique = (items: readonly T[]) => {
    const seen = new Set<string>();
    for (const item of items) {
      const key = keyOf(item);
      if (seen.has(key)) throw new Error(`${name}: '${key}' registered twice`);
      seen.add(key);
    }
  };

  return {
    name,
    items: all,
    get: (key) => all().find((item) => keyOf(item) === key),
    install(items) {
      assertUnique([...items, ...added]);
      installed = [...items];
    },
    add(item) {
      assertUnique([...all(), item]);
      added.push(item);

      return () => {
        const index = added.indexOf(item);
        if (index >= 0) added.splice(index, 1);
      };
    },
  };
}

/** SQL whose text is built each time a statement is rendered (Drizzle calls getSQL() then). */
export function lazySql(build: () => SQL): SQL {
  const wrapper: SQLWrapper = { getSQL: build };

  return sql`${wrapper}`;
}
