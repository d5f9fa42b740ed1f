'use client';

import { Link } from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { PlaylistPreview, SlidePreview } from '@/components/content/content-preview';
import { LoadError } from '@/components/ui/alert';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { contentResource, contentTypeOf, type PlaylistData, type SlideData } from '@/lib/api/content';
import { resolverOf, usePlaylistReferences } from '@/lib/api/content-references';
import { useDatasourceFeed } from '@/lib/api/datasource-data';
import { useLabel } from '@/lib/i18n/labels';

/** The item as a screen shows it, as large as the window allows (`previewPath`). */
export function ContentPreviewPage({ id }: { id: string }) {
  const detail = contentResource.useDetail(id);
  const data = detail.data?.deviceContentType === 'simpleLoop' ? (detail.data.data as PlaylistData) : undefined;
  const refs = usePlaylistReferences(data);
  // As a screen shows it: the datasource widgets' data, read again while the preview is open.
  const datasourceFeed = useDatasourceFeed(detail.data?.customerId, { live: true });
  const t = useTranslations('content');
  const label = useLabel();
  if (detail.isPending) return <Spinner className="m-8 size-6" label={t('loading')} />;
  if (detail.isError || !detail.data)
    return <LoadError title={t('itemLoadError')} error={detail.error} onRetry={() => void detail.refetch()} />;
  const item = detail.data;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-3 text-sm">
        <Link href={`/content/${item.id}`} className="inline-flex items-center gap-1 text-zinc-500 hover:text-zinc-900">
          <ChevronLeftIcon className="size-4" />
          {t('preview.back')}
        </Link>
        <h1 className="font-medium text-zinc-900">{item.name}</h1>
        <span className="text-zinc-400">{label('contentType', contentTypeOf(item))}</span>
      </div>
      <div className="mx-auto w-full max-w-6xl">
        {data ? (
          <PlaylistPreview data={data} customerId={item.customerId} resolver={resolverOf(refs)} playing datasourceFeed={datasourceFeed} />
        ) : (
          <SlidePreview data={item.data as SlideData} customerId={item.customerId} datasourceFeed={datasourceFeed} />
        )}
      </div>
    </div>
  );
}
