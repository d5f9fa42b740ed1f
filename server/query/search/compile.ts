import { and, or, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ValidationError } from '../../errors';
import { aliasNamer, exists, joinRelation, scopeOf, type AnyResource, type Scope } from '../relations';
import type { RelationField, ScalarField } from '../resource';
import type { SearchNode, Term } from './ast';
import { compileNullCheck, compileScalarTerm } from './operators';
import { parseSearch } from './parser';

/**
 * Compiles a `search` string against a resource into one parameterised SQL condition
 * (undefined when the search is empty). Relation chains become correlated EXISTS subqueries.
 * `table` is the instance the outer query selects from (the resource's table by default).
 */
export function compileSearch(resource: AnyResource, search: string | undefined, table?: PgTable): SQL | undefined {
  if (search === undefined) return undefined;
  const ast = parseSearch(search);
  return ast && compileSearchAst(resource, ast, table);
}

export function compileSearchAst(resource: AnyResource, ast: SearchNode, table?: PgTable): SQL {
  return new Compiler().node(ast, scopeOf(resource, table));
}

class Compiler {
  private readonly nextAlias = aliasNamer('s');

  node(node: SearchNode, scope: Scope): SQL {
    if (node.type === 'term') return this.term(node, scope, 0);
    const children = node.children.map((child) => this.node(child, scope));
    // and()/or() only return undefined for no arguments; a parsed group always has two or more.
    return (node.type === 'and' ? and(...children) : or(...children)) ?? sql`true`;
  }

  /** Resolves `term.path[depth]` in `scope`, descending through relations for the remaining segments. */
  private term(term: Term, scope: Scope, depth: number): SQL {
    const name = term.path[depth]!;
    const field = Object.hasOwn(scope.fields, name) ? scope.fields[name] : undefined;
    const isLast = depth === term.path.length - 1;
    if (!field) throw unknownField(term, depth, scope, (n, r) => `Unknown field '${n}' on ${r}`);
    if (field.kind === 'relation') {
      return isLast ? this.relationNullCheck(term, field) : this.chain(term, field, scope, depth);
    }
    if (!isLast) throw unknownField(term, depth, scope, (n, r) => `Field '${n}' on ${r} is not a relation`);
    return this.scalar(term, field, depth, scope);
  }

  private chain(term: Term, relation: RelationField, scope: Scope, depth: number): SQL {
    const joined = joinRelation(relation, this.nextAlias());
    return exists(joined, this.term(term, joined, depth + 1));
  }

  private scalar(term: Term, field: ScalarField, depth: number, scope: Scope): SQL {
    const searchable = field.searchable ?? field.type !== 'json';
    if (!searchable || field.type === 'json') throw unknownField(term, depth, scope, (n, r) => `Field '${n}' on ${r} is not searchable`);
    const ctx = { term, field, name: term.path.join('.') };
    if (term.value.kind !== 'text') return compileNullCheck(field, term.value.kind === 'null');
    return compileScalarTerm(ctx, term.value.text);
  }

  /** A relation itself can only be compared with NULL / !NULL; a collection is "NULL" when empty. */
  private relationNullCheck(term: Term, relation: RelationField): SQL {
    if (term.value.kind === 'text') {
      throw new ValidationError(
        'search.error.invalidValue',
        `Relation '${term.path.join('.')}' can only be compared with NULL or !NULL (position ${term.position}); use a field of it, e.g. '${term.path.join('.')}.id'`,
        { position: term.position, token: term.token },
      );
    }
    const isNull = term.value.kind === 'null';
    if (relation.cardinality === 'one' && relation.foreignKey) {
      return isNull ? sql`${relation.foreignKey} is null` : sql`${relation.foreignKey} is not null`;
    }
    const some = exists(joinRelation(relation, this.nextAlias()));
    return isNull ? sql`not ${some}` : some;
  }
}

function unknownField(term: Term, depth: number, scope: Scope, describe: (name: string, resource: string) => string): ValidationError {
  const name = term.path.slice(0, depth + 1).join('.');
  return new ValidationError(
    'search.error.unknownField',
    `${describe(term.path[depth]!, scope.resource.name)} (search position ${term.position})`,
    { position: term.position, token: term.token, field: name },
  );
}
