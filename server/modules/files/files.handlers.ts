import type { App } from '@/server/http/app';

export function registerFileRoutes(_app: App): void {}
