let isSigningOut = false;

/** A sign-out navigates by itself; the session watcher must not race it with its own redirect. */
export function markSigningOut(): void {
  isSigningOut = true;
}

export function signingOut(): boolean {
  return isSigningOut;
}
