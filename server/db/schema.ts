// Every table of the service, for drizzle's relational typing. drizzle-kit finds them by the *.table.ts glob.
export * from '@/server/modules/customers/customers.table';
export * from '@/server/modules/users/users.table';
export * from '@/server/auth/tokens.table';
export * from '@/server/modules/audit-log/audit-log.table';
export * from '@/server/modules/teams/teams.table';
export * from '@/server/modules/resource-limits/resource-limits.table';
export * from '@/server/modules/ui-profiles/ui-profiles.table';
export * from '@/server/modules/folders/folders.table';
export * from '@/server/modules/files/files.table';
export * from '@/server/modules/uploads/uploads.table';
export * from '@/server/modules/quick-filters/quick-filters.table';
export * from '@/server/modules/tags/tags.table';
export * from '@/server/storage/storage.table';
export * from '@/server/modules/users/password-setup.table';
export * from '@/server/modules/mail/mail.table';
