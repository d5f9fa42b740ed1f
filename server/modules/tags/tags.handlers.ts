import type { App } from '@/server/http/app';

export function registerTagRoutes(_app: App): void {}
