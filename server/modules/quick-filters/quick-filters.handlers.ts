import type { App } from '@/server/http/app';

export function registerQuickFilterRoutes(_app: App): void {}
