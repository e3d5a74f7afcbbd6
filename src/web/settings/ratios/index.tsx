/**
 * Sub-tab views by name (`x-ui.subTabs` of a section file): the JSON fields (the section's
 * RJSF form), the visual ratio table and the models without a ratio. Registered once.
 */
import type { ComponentType } from 'react';
import { SectionForm } from '../section-form';
import type { SubTabProps } from './sub-tab-props';
import { RatioTableView } from './ratio-table-view';
import { UnpricedModelsView } from './unpriced-models-view';

export interface SubTabDef {
  labelKey: string;
  view: ComponentType<SubTabProps>;
}

export const SUB_TABS: Record<string, SubTabDef> = {
  json: { labelKey: 'settings.subTabs.json', view: ({ section, form }) => <SectionForm section={section} form={form} /> },
  'ratio-table': { labelKey: 'settings.subTabs.ratioTable', view: RatioTableView },
  'unpriced-models': { labelKey: 'settings.subTabs.unpriced', view: UnpricedModelsView },
};
