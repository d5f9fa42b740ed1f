import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { NotificationChannelsPage } from '@/components/notification-channels/notification-channels-page';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('notificationChannels'))('title') };
}

export default function Page() {
  return <NotificationChannelsPage />;
}
