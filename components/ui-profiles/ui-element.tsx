'use client';

import type { ReactNode } from 'react';
import { useUiElements } from '@/lib/ui-profile/use-ui-profile';

/**
 * Renders `children` only when the signed-in user's UI profile does not hide `name` (a key of
 * lib/ui-profile/rules.ts UI_ELEMENTS). Nothing is rendered until the profile is known, so a hidden
 * element never flashes. Hiding is cosmetic: the API still decides what the user may do.
 */
export function UiElement({ name, children }: { name: string; children: ReactNode }) {
  const ui = useUiElements();

  return ui.ready && ui.isVisible(name) ? children : null;
}
