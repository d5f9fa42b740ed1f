import type { SessionUser } from '@/lib/auth/types';

declare module 'next-auth' {
  interface Session {
    user?: SessionUser;
    error?: 'RefreshFailed';
  }
}
