/**
 * Whether the side navigation is collapsed: the user's own choice, kept locally, or else
 * the site default (`default_collapse_sidebar`).
 */
import { useState } from 'react';
import { readText, STORAGE_KEYS, writeText } from '../storage';
import { usePublicStatus } from '../state/status-context';

export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const status = usePublicStatus();
  const [choice, setChoice] = useState<string | null>(() => readText(STORAGE_KEYS.sidebarCollapsed));
  const collapsed = choice === null ? Boolean(status.default_collapse_sidebar) : choice === 'true';
  const set = (value: boolean) => {
    writeText(STORAGE_KEYS.sidebarCollapsed, String(value));
    setChoice(String(value));
  };
  return [collapsed, set];
}
