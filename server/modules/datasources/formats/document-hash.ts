import { createHash, type Hash } from 'node:crypto';
import { isPlainObject } from './storable';

/**
 * SHA-256 (hex) of the document's canonical JSON: object keys sorted by code unit, no whitespace, members whose
 * value is undefined left out (as JSON.stringify does). Two documents with the same data hash alike whatever their
 * key order, which is what "the data changed" means for `lastUpdated` and datasourceChanged.
 */
export function documentHash(document: unknown): string {
  const hash = createHash('sha256');
  writeCanonical(hash, document);

  return hash.digest('hex');
}

function writeCanonical(hash: Hash, value: unknown): void {
  if (Array.isArray(value)) {
    hash.update('[');
    value.forEach((entry, index) => {
      if (index > 0) hash.update(',');
      writeCanonical(hash, entry === undefined ? null : entry);
    });
    hash.update(']');

    return;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    hash.update('{');
    keys.forEach((key, index) => {
      hash.update(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      writeCanonical(hash, value[key]);
    });
    hash.update('}');

    return;
  }
  // Strings, finite numbers, booleans and null as JSON writes them; anything else (NaN, a function) as null.
  hash.update(JSON.stringify(value) ?? 'null');
}
