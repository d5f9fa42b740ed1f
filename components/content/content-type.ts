import type { DeviceContent } from '@/lib/api/content';

/** An item's content type as the label table keys it (`labels.contentType`): a playlist, a slide or interactive content. */
export function contentTypeOf(item: Pick<DeviceContent, 'deviceContentType' | 'structureType'>): 'simpleLoop' | 'SLIDE' | 'COMPLEX' {
  return item.deviceContentType === 'simpleLoop' ? 'simpleLoop' : item.structureType === 'COMPLEX' ? 'COMPLEX' : 'SLIDE';
}
