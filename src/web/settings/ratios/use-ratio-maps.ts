/** The visual ratio table's view of a section form: its maps (or the broken key), titles, and a setter. */
import { useMemo } from 'react';
import type { RatioColumn, SectionModel } from '../settings-model';
import type { SectionForm } from '../use-section-form';
import { parseRatioMaps, ratioFields, toPatch, type RatioMaps } from './ratio-model';

export function useRatioMaps(section: SectionModel, form: SectionForm) {
  const parsed = useMemo(() => parseRatioMaps(section, form.values), [section, form.values]);
  const titles = useMemo(() => Object.fromEntries(Object.entries(ratioFields(section)).map(([c, f]) => [c, f.title])) as Partial<Record<RatioColumn, string>>, [section]);
  const setMaps = (maps: RatioMaps) => form.patch(toPatch(section, maps));
  return { maps: 'maps' in parsed ? parsed.maps : undefined, invalid: 'invalid' in parsed ? parsed.invalid : undefined, titles, setMaps };
}
