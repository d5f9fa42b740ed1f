// The notification-channels module's public face: what other modules use of it besides its *.table.ts and
// *.schemas.ts files (docs/decisions.md, "Modules"). The alerts module queues its notifications here.
export { queueNotifications } from './notification-deliveries';
export type { AlertNotification } from './notification-deliveries.schemas';
