import type { App } from '@/server/http/app';

export function registerUploadRoutes(_app: App): void {}
