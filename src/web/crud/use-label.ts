/**
 * The one resolver of declaration texts for the generic screens: `t(label, params)` takes a
 * locale key or an inline `{ zh, en }` text (`src/shared/resources/label.ts`), so no
 * component tells the two apart. Plain keys behave exactly as i18next's `t`.
 */
import { useCallback } from 'react';
import { useTranslation } from '../use-translation';
import { labelText, type Label } from '../../shared/resources/label';

export type LabelT = (label: Label, params?: Record<string, unknown>) => string;

export function useLabel(): LabelT {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useCallback<LabelT>((label, params) => labelText(label, lang, (key, p) => t(key, p), params), [t, lang]);
}
