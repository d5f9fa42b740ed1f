import { describe, expect, it } from 'vitest';
import { closureOf } from './manifest-closure';
import type { ContentGraph, GraphContent, GraphFile } from './manifest.queries';

/* The closure of some roots within a content graph read once: what the manifest lists and the ETag hashes. */

const content = (id: string, embeds: string[] = []): GraphContent => ({
  id,
  name: id,
  deviceContentType: 'content',
  structureType: null,
  version: '1',
  dataHash: `h${id}`,
  embeds,
});
const file = (id: string, name: string, refs: { by?: string[]; folder?: string | null; folderBy?: string[] } = {}): GraphFile => ({
  id,
  name,
  contentType: 'image/png',
  size: 1,
  crcCheckSum: 'c',
  width: null,
  height: null,
  durationSeconds: null,
  validFrom: null,
  validTo: null,
  folderId: refs.folder ?? null,
  referencedBy: refs.by ?? [],
  folderReferencedBy: refs.folderBy ?? [],
});

// a embeds b, b embeds c and a again (a cycle); d stands alone. f1 is referenced by c, f2 lies in folder F that d references,
// f3 lies in F too and is referenced by b directly, f4 is referenced by nothing (a channel plays it as a FILE item).
const graph: ContentGraph = {
  contents: new Map([content('a', ['b']), content('b', ['a', 'c']), content('c'), content('d')].map((c) => [c.id, c])),
  files: new Map(
    [
      file('f4', 'alpha'),
      file('f2', 'beta', { folder: 'F', folderBy: ['d'] }),
      file('f3', 'gamma', { folder: 'F', by: ['b'], folderBy: ['d'] }),
      file('f1', 'zeta', { by: ['c'] }),
    ].map((f) => [f.id, f]),
  ),
};

describe('the closure of roots within a content graph', () => {
  it('follows embedded content transitively, through cycles, and takes the files the reached content references', () => {
    const { contents, files } = closureOf(graph, ['a']);
    expect(contents.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(contents[0]).not.toHaveProperty('embeds');
    expect(files.map((f) => f.id)).toEqual(['f3', 'f1']);
    // f3 lies in F, but nothing reached references F: no folder membership to list.
    expect(files.map((f) => f.inFolders)).toEqual([[], []]);
  });

  it('lists a folder membership only when reached content references the folder, and keeps the graph order of files (by name)', () => {
    const { contents, files } = closureOf(graph, ['d', 'c'], ['f4']);
    expect(contents.map((c) => c.id)).toEqual(['c', 'd']);
    expect(files.map((f) => [f.id, f.inFolders])).toEqual([
      ['f4', []],
      ['f2', ['F']],
      ['f3', ['F']],
      ['f1', []],
    ]);
  });

  it('ignores roots and files the graph does not hold (deleted, another tenant)', () => {
    expect(closureOf(graph, ['x'], ['fx'])).toEqual({ contents: [], files: [] });
  });
});
