import type { SQL } from 'drizzle-orm';
import { ValidationError } from '@/server/errors';
import { definePlugPoint } from '@/server/plug-point';
import { normalizeTags } from '@/server/modules/tags';
import { compileSearchAst, parseSearch, type AnyResource, type Operator, type SearchNode, type Term } from '@/server/query';
import { CriteriaSchema, type Criteria } from './quick-filters.schemas';
import type { filteredEntityTypes } from './quick-filters.table';

type EntityType = (typeof filteredEntityTypes)[number];

/**
 * Turns saved criteria into search-language nodes over one entity's resource, so the whole filter
 * compiles through the query compiler into ONE condition (the same SQL a typed `search` gives).
 * Each entity type plugs its compiler into `criteriaCompilers` (FILE from the files module, CONTENT from the content module, DEVICE from the devices module).
 */
export type CriteriaCompiler = {
  type: EntityType;
  resource: AnyResource;
  nodes: (criteria: Criteria, input: { customerId: number; now: Date }) => SearchNode[];
};

/** The entity types whose criteria can be evaluated; each module that owns such a list plugs its compiler in. */
export const criteriaCompilers = definePlugPoint<CriteriaCompiler>('criteriaCompilers', (c) => c.type);

/** Parses stored or submitted criteria and checks the type, the tags and the search (400 on any fault). */
export function validateCriteria(filteredEntityType: EntityType, raw: unknown): Criteria {
  const parsed = CriteriaSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(
      'quickFilter.error.invalidCriteria',
      `Invalid criteria${issue ? ` at '${issue.path.join('.')}': ${issue.message}` : ''}`,
      {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      },
    );
  }
  const criteria = withoutNulls(parsed.data);
  if (criteria.type !== filteredEntityType) {
    throw new ValidationError(
      'quickFilter.error.typeMismatch',
      `criteria.type '${criteria.type}' does not match filteredEntityType '${filteredEntityType}'`,
      {
        field: 'criteria.type',
      },
    );
  }
  if (criteria.tags) criteria.tags = normalizeTags(criteria.tags);
  const compiler = criteriaCompilers.get(filteredEntityType);
  // Compiling the whole filter proves its search against the entity's fields; without a resource, check the syntax.
  if (compiler) compileCriteria(compiler, criteria, { customerId: 0, now: new Date() });
  else if (criteria.search) inSearch(() => parseSearch(criteria.search!));

  return criteria;
}

/** The criteria as one SQL condition over the entity's table, or a 400 when the type cannot be evaluated yet. */
export function criteriaCondition(filteredEntityType: EntityType, raw: unknown, input: { customerId: number; now: Date }): SQL {
  const compiler = criteriaCompilers.get(filteredEntityType);
  if (!compiler) {
    throw new ValidationError(
      'quickFilter.error.unsupportedType',
      `${filteredEntityType} quick filters cannot be evaluated yet: no ${filteredEntityType.toLowerCase()} list exists`,
      {
        filteredEntityType,
      },
    );
  }

  return compileCriteria(compiler, validateCriteria(filteredEntityType, raw), input);
}

function compileCriteria(compiler: CriteriaCompiler, criteria: Criteria, input: { customerId: number; now: Date }): SQL {
  const nodes = inSearch(() => compiler.nodes(criteria, input));

  return inSearch(() => compileSearchAst(compiler.resource, nodes.length === 1 ? nodes[0]! : { type: 'and', children: nodes }));
}

/** A search term built from a criteria field (errors name `criteria.{field}`). */
export function term(field: string, operator: Operator, text: string): Term {
  return { type: 'term', path: [field], operator, value: { kind: 'text', raw: text, text }, position: 0, token: `criteria.${field}` };
}

/** A search term matching rows whose criteria field is null. */
export function nullTerm(field: string): Term {
  return { type: 'term', path: [field], operator: '=', value: { kind: 'null' }, position: 0, token: `criteria.${field}` };
}

/** Search errors name the criteria: `criteria.search` (positions are within it) or the criteria field. */
function inSearch<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new ValidationError(err.key, `criteria.search: ${err.message}`, { ...err.details, field: 'criteria.search' });
    }
    throw err;
  }
}

function withoutNulls(criteria: Criteria): Criteria {
  return Object.fromEntries(Object.entries(criteria).filter(([, v]) => v !== null && v !== undefined)) as Criteria;
}
