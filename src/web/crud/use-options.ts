/** Select options for an `OptionSource`; fetched lists are cached per URL by refine. */
import { useCustom } from '@refinedev/core';
import type { OptionSource } from '../../shared/resources/common';
import { currentLanguage } from '../i18n';
import { registryOptions } from './option-registry';
import { fetchedOptions, staticOptions, type SelectOption } from './options-source';
import { useLabel } from './use-label';

export function useOptions(source: OptionSource | undefined): { options: SelectOption[]; loading: boolean } {
  const t = useLabel();
  const url = source?.kind === 'fetch' ? source.url : '';
  const { query, result } = useCustom({
    url,
    method: 'get',
    queryOptions: { enabled: Boolean(url), staleTime: 60_000 },
    errorNotification: false,
  });
  if (!source) return { options: [], loading: false };
  if (source.kind === 'static') return { options: staticOptions(source, t), loading: false };
  if (source.kind === 'registry') return { options: registryOptions(source.name, currentLanguage()), loading: false };
  return { options: fetchedOptions(result?.data, source), loading: query.isLoading };
}
