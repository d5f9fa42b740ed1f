import { and, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import { cachedProjection, cachedSearch, cachedSort } from './compile-cache';
import { buildPage, parsePaging, type Page } from './paging';
import type { AnyResource } from './relations';
import { selectList, toJson, type Projection } from './select';

/**
 * The one executor behind every paged read. Works with any drizzle Postgres database or transaction
 * (node-postgres and PGlite return `{ rows }` from `execute`; postgres-js returns the rows array).
 */
export type QueryDatabase = { execute: (query: SQLWrapper) => PromiseLike<unknown> };

/** A list request as its route's validator gives it: paging, `search`, `select`, and `sort` split into values. */
export type ListInput = { page?: string; size?: string; sort: string[]; search?: string; select?: string };

export type FindPageOptions = {
  resource: AnyResource;
  /** The tenant scope: required for a resource that declares its `tenant` column. */
  scope?: TenantScope;
  /** Conditions the caller imposes (team visibility, a parent, ...), ANDed with the scope and the search. */
  where?: ReadonlyArray<SQL | undefined>;
  /** One more condition, e.g. from an endpoint-specific parameter. */
  extraWhere?: SQL;
  search?: string;
  select?: string;
  /** The projection when the client names none; its nulls are omitted like those of `*`. */
  defaultSelect?: string;
  sort?: string | readonly string[];
  page?: unknown;
  size?: unknown;
  /** An endpoint's own cap below the resource's `maxPageSize`. */
  maxPageSize?: number;
  /**
   * Values computed per row by the endpoint, outside the resource's field map because they depend on
   * the request (team `readOnly`, counts asked for by a flag); added to every item under their key.
   */
  extraColumns?: Record<string, SQL>;
};

export type FindOneOptions = {
  resource: AnyResource;
  /** The tenant scope: required for a resource that declares its `tenant` column. */
  scope?: TenantScope;
  where: ReadonlyArray<SQL | undefined>;
  select?: string;
  /** The projection when the client names none; its nulls are omitted like those of `*`. */
  defaultSelect?: string;
};

type Row = Record<string, unknown>;

const TOTAL = '__total';
const PAGE = '__page';
const ROW_ADDRESS = '__ctid';
const EXTRA = '__extra_';

/**
 * The page's rows with `count(*) OVER ()` of every match, in one statement. Validation (paging, select, sort,
 * search) happens before any SQL runs. Only when a page beyond the first comes back empty is a separate count
 * needed.
 */
export async function findPage<T extends object = Row>(db: QueryDatabase, options: FindPageOptions): Promise<Page<T>> {
  const { resource } = options;
  const paging = parsePaging({ page: options.page, size: options.size }, options.maxPageSize ?? resource.maxPageSize);
  const projection = projectionFor(resource, options.select, options.defaultSelect);
  const sort = cachedSort(resource, options.sort);
  const where = whereClause(
    resource,
    [tenantCondition(resource, options.scope), ...(options.where ?? []), options.extraWhere],
    options.search,
  );

  const extras = Object.entries(options.extraColumns ?? {});
  const extraList = sql.join(
    extras.map(([key, value]) => sql`, ${value} as ${sql.identifier(EXTRA + key)}`),
    sql``,
  );
  const orderBy = orderByClause(sort.orderBy);
  const table = resource.table;
  // A narrow inner query picks the page by row address (ctid, stable within the statement's snapshot) and counts
  // every match; the projection is computed for the page's rows only. With the whole row in the window count, a
  // broad name search (4 000 matches) spilled its JSON documents to disk: 45 ms instead of ~10 (docs/benchmarks.md).
  const rows = await rowsOf(
    db.execute(sql`select ${selectList(projection)}${extraList}, ${sql.identifier(PAGE)}.${sql.identifier(TOTAL)}
      from ${table} join (
        select ${table}.ctid as ${sql.identifier(ROW_ADDRESS)}, count(*) over () as ${sql.identifier(TOTAL)}
        from ${table}${where}
        ${orderBy}
        limit ${paging.size} offset ${paging.page * paging.size}
      ) as ${sql.identifier(PAGE)} on ${table}.ctid = ${sql.identifier(PAGE)}.${sql.identifier(ROW_ADDRESS)}
      ${orderBy}`),
  );
  const total = rows.length > 0 ? Number(rows[0]![TOTAL]) : paging.page > 0 ? await count(db, resource, where) : 0;
  const content = rows.map((row) => {
    const item = toJson(projection, row);
    for (const [key] of extras) item[key] = row[EXTRA + key];

    return item;
  });
  // The caller names the wire type of its resource (the module schema's type); the tests check every answer
  // against that schema at run time (server/http/response-conformance.ts), so this is the one place it is asserted.
  return buildPage(content as T[], paging, total, sort.echo);
}

/** Reads one row in the same projection as the list (e.g. `GET /x/{id}` with `select`). */
export async function findOne<T extends object = Row>(db: QueryDatabase, options: FindOneOptions): Promise<T | undefined> {
  const projection = projectionFor(options.resource, options.select, options.defaultSelect);
  const where = whereClause(options.resource, [tenantCondition(options.resource, options.scope), ...options.where]);
  const rows = await rowsOf(db.execute(sql`select ${selectList(projection)} from ${options.resource.table}${where} limit 1`));
  return rows[0] && (toJson(projection, rows[0]) as T);
}

/** Counts the rows matching the same conditions as `findPage` (tenant scope + search). */
export async function countMatching(
  db: QueryDatabase,
  options: Omit<FindPageOptions, 'select' | 'sort' | 'page' | 'size'>,
): Promise<number> {
  const conditions = [tenantCondition(options.resource, options.scope), ...(options.where ?? []), options.extraWhere];

  return count(db, options.resource, whereClause(options.resource, conditions, options.search));
}

/** The scope's condition on the resource's tenant column; a tenant's resource is never read without a scope. */
function tenantCondition(resource: AnyResource, scope: TenantScope | undefined): SQL | undefined {
  if (!resource.tenant) {
    if (scope) throw new Error(`${resource.name} has no tenant column: a scope would filter nothing`);

    return undefined;
  }
  if (!scope) throw new Error(`${resource.name} is a tenant's resource: read it within a tenant scope`);

  return scopeCondition(scope, resource.tenant(resource.table));
}

/** The client's `select`, or the endpoint's default shape (not explicit: nulls stay omitted). */
function projectionFor(resource: AnyResource, select: string | undefined, defaultSelect: string | undefined): Projection {
  if (select !== undefined && select.trim() !== '') return cachedProjection(resource, select);
  if (defaultSelect === undefined) return cachedProjection(resource, undefined);

  return implicit(cachedProjection(resource, defaultSelect));
}

function implicit(projection: Projection): Projection {
  return projection.map((field) => ({ ...field, explicit: false, children: field.children && implicit(field.children) }));
}

function whereClause(resource: AnyResource, conditions: ReadonlyArray<SQL | undefined>, search?: string): SQL {
  const condition = and(...conditions, cachedSearch(resource, search));
  return condition ? sql` where ${condition}` : sql``;
}

function orderByClause(orderBy: SQL[]): SQL {
  return orderBy.length ? sql`order by ${sql.join(orderBy, sql`, `)}` : sql``;
}

async function count(db: QueryDatabase, resource: AnyResource, where: SQL): Promise<number> {
  const rows = await rowsOf(db.execute(sql`select count(*) as "count" from ${resource.table}${where}`));
  return Number(rows[0]?.count ?? 0);
}

async function rowsOf(result: PromiseLike<unknown>): Promise<Row[]> {
  const value = await result;
  if (Array.isArray(value)) return value as Row[];
  return ((value as { rows?: Row[] }).rows ?? []) as Row[];
}
