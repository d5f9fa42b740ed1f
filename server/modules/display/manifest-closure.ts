import type { ClosureContent, ClosureFile, ContentGraph, GraphContent, GraphFile } from './manifest.queries';

/*
 * The closure of some roots within a content graph read once (`findContentGraph`): the content the roots embed,
 * transitively, and the files all of it references, directly or through a file folder, with the files played
 * directly. The manifest takes the closure of what its segments play; its ETag, the closures of what each
 * targeted campaign may play, all from one read.
 */

export type Closure = { contents: ClosureContent[]; files: ClosureFile[] };

type GraphIndex = { position: Map<string, number>; filesOf: Map<string, string[]> };

const indexes = new WeakMap<ContentGraph, GraphIndex>();

/** Each file's place in the graph's order, and the files each content item references (directly or by folder). */
function indexOf(graph: ContentGraph): GraphIndex {
  let index = indexes.get(graph);
  if (index) return index;
  const position = new Map<string, number>();
  const filesOf = new Map<string, string[]>();
  let i = 0;
  for (const file of graph.files.values()) {
    position.set(file.id, i++);
    for (const contentId of [...file.referencedBy, ...file.folderReferencedBy]) {
      const list = filesOf.get(contentId);
      if (list) list.push(file.id);
      else filesOf.set(contentId, [file.id]);
    }
  }
  indexes.set(graph, (index = { position, filesOf }));

  return index;
}

const closureContent = ({ embeds: _embeds, ...content }: GraphContent): ClosureContent => content;

/** A file's folder, when content of the closure (`reached`) references that folder: the manifest's `folders`. */
export const inFoldersOf = (file: GraphFile, reached: ReadonlySet<string>): string[] =>
  file.folderId !== null && file.folderReferencedBy.some((id) => reached.has(id)) ? [file.folderId] : [];

function closureFile(
  { folderId: _folderId, referencedBy: _referencedBy, folderReferencedBy: _folderReferencedBy, ...file }: GraphFile,
  inFolders: string[],
): ClosureFile {
  return { ...file, inFolders };
}

/**
 * The ids of the closure of `roots` (content ids) and `fileIds` within `graph`: contents by id, files in the
 * graph's order (by name), and the set of content reached.
 */
export function closureIds(
  graph: ContentGraph,
  roots: Iterable<string>,
  fileIds: Iterable<string> = [],
): { contentIds: string[]; fileIds: string[]; reached: ReadonlySet<string> } {
  const reached = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (reached.has(id)) continue;
    const content = graph.contents.get(id);
    if (!content) continue;
    reached.add(id);
    for (const embedded of content.embeds) stack.push(embedded);
  }
  const { position, filesOf } = indexOf(graph);
  const fileSet = new Set<string>();
  for (const id of fileIds) if (graph.files.has(id)) fileSet.add(id);
  for (const id of reached) for (const fileId of filesOf.get(id) ?? []) fileSet.add(fileId);

  return { contentIds: [...reached].sort(), fileIds: [...fileSet].sort((a, b) => position.get(a)! - position.get(b)!), reached };
}

/** The closure of `roots` (content ids) and `fileIds` within `graph`: contents by id, files by name then id. */
export function closureOf(graph: ContentGraph, roots: Iterable<string>, fileIds: Iterable<string> = []): Closure {
  const ids = closureIds(graph, roots, fileIds);

  return {
    contents: ids.contentIds.map((id) => closureContent(graph.contents.get(id)!)),
    files: ids.fileIds.map((id) => {
      const file = graph.files.get(id)!;

      return closureFile(file, inFoldersOf(file, ids.reached));
    }),
  };
}
