// Every table of the service, for drizzle's relational typing. drizzle-kit finds them by the *.table.ts glob.
export * from '@/server/modules/customers/customers.table';
export * from '@/server/modules/users/users.table';
export * from '@/server/auth/tokens.table';
export * from '@/server/modules/audit-log/audit-log.table';
