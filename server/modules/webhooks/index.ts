// The webhooks module's public face: what other modules use of it besides its *.table.ts and *.schemas.ts files.
export { createWebhookExecutor, wakeWebhookExecutors } from './webhook-executor';
