/**
 * Section actions by name (`x-ui.actions` of a section file): extra controls shown under the
 * section's fields, registered once.
 */
import type { ComponentType } from 'react';
import { LogCleanup } from './log-cleanup';
import { VersionCheck } from './version-check';

export const SECTION_ACTIONS: Record<string, ComponentType> = {
  'log-cleanup': LogCleanup,
  'version-check': VersionCheck,
};
