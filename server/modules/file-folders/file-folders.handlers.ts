import type { App } from '@/server/http/app';

export function registerFileFolderRoutes(_app: App): void {}
