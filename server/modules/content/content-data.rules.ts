import type { PlaylistData, SlideData } from './content-data.schemas';

/*
 * What a `data` document points at, and what each pointer may point at (spec 2 embedding rules): a
 * playlist embeds files, file folders, slides and nested playlists (never multi-page content); a slide
 * embeds slides, playlists, channels and media through widgets; interactive content embeds slides,
 * playlists, channels, content of either structure and media. Pure: the service checks the ids.
 */

/** What an embedded content id must be: a one-page slide, any slide or interactive content, or a playlist. */
export type Embeddable = 'slide' | 'anyContent' | 'simpleLoop';

type ContentPointer = { id: string; path: string; expects: Embeddable };
export type IdPointer = { id: string; path: string };

export type DataReferences = { files: IdPointer[]; fileFolders: IdPointer[]; contents: ContentPointer[]; datasources: IdPointer[] };

export function playlistReferences(data: PlaylistData): DataReferences {
  const refs: DataReferences = { files: [], fileFolders: [], contents: [], datasources: [] };
  data.slides.forEach((item, i) => {
    const path = `data.slides.${i}.id`;
    if (item.type === 'FILE') refs.files.push({ id: item.id, path });
    else if (item.type === 'FILE_FOLDER') refs.fileFolders.push({ id: item.id, path });
    else refs.contents.push({ id: item.id, path, expects: item.type === 'CONTENT' ? 'slide' : 'simpleLoop' });
  });

  return refs;
}

/** Paths name pages by their key, as the client sent them (`data.Default.widgets.0.fileId`). */
export function slideReferences(data: SlideData, structureType: 'SLIDE' | 'COMPLEX'): DataReferences {
  const refs: DataReferences = { files: [], fileFolders: [], contents: [], datasources: [] };
  for (const page of data.pages) {
    const backgroundFileId = page.pageStyle?.backgroundFileId;
    if (backgroundFileId) refs.files.push({ id: backgroundFileId, path: `data.${page.name}.pageStyle.backgroundFileId` });
    (page.widgets ?? []).forEach((widget, w) => {
      const at = `data.${page.name}.widgets.${w}`;
      if (widget.type === 'image' || widget.type === 'video') refs.files.push({ id: widget.fileId, path: `${at}.fileId` });
      else if (widget.type === 'playlist')
        refs.contents.push({ id: widget.simpleLoopId, path: `${at}.simpleLoopId`, expects: 'simpleLoop' });
      else if (widget.type === 'content')
        refs.contents.push({ id: widget.contentId, path: `${at}.contentId`, expects: structureType === 'SLIDE' ? 'slide' : 'anyContent' });
      else if (widget.type === 'datasource' && widget.datasourceId)
        refs.datasources.push({ id: widget.datasourceId, path: `${at}.datasourceId` });
    });
  }

  return refs;
}

/** Whether content of this kind satisfies what the pointer expects. */
export function satisfies(expects: Embeddable, target: { deviceContentType: string; structureType: string | null }): boolean {
  if (expects === 'simpleLoop') return target.deviceContentType === 'simpleLoop';
  if (target.deviceContentType !== 'content') return false;

  return expects === 'anyContent' || target.structureType === 'SLIDE';
}

const EXPECTED_WORDS: Record<Embeddable, string> = {
  slide: 'a slide',
  anyContent: 'a slide or interactive content',
  simpleLoop: 'a playlist',
};

export function expectedWords(expects: Embeddable): string {
  return EXPECTED_WORDS[expects];
}

/** Distinct ids of a pointer list. */
export function idsOf(pointers: readonly IdPointer[]): string[] {
  return [...new Set(pointers.map((p) => p.id.toLowerCase()))];
}
