/**
 * The vocabulary of a resource declaration (`resources/*.ts`): plain data that the console's
 * generic List screen and Create/Edit drawer render. No React, no functions: renderers,
 * field kinds and action kinds are names looked up in registries in `src/web/crud/`.
 * Each concept has its module: `columns.ts`, `forms.ts`, `actions.ts`, `search.ts`,
 * `lists.ts`, and `common.ts` for conditions, options and bodies. Columns, form fields and
 * row and batch actions are unions keyed on their renderer or kind, so each option is
 * written (and documented) with the variant that reads it.
 * Every text (the `…Key` fields) is a `Label`: a locale key for shared words
 * (`crud.actions.edit`), or the text itself in both languages (`{ zh: '名称', en: 'Name' }`)
 * for words only this declaration uses (see `label.ts`). Never a sentence in one language.
 */
import type { BatchActionDef, RowActionDef, ToolbarActionDef } from './actions';
import type { ColumnDef } from './columns';
import type { Conditions, EndpointDef } from './common';
import type { FormDef } from './forms';
import type { Label } from './label';
import type { DownloadDef, ExpandDef, ListToggleDef, StatsDef } from './lists';
import type { SearchDef } from './search';

// What declarations name beside `defineResource`, so they import from one place.
export type { Bilingual, Label } from './label';
export type { Condition, EnumValue } from './common';
export type { JsonFieldDef, ModelPickerDef, NumberFieldDef } from './forms';

export interface ResourceDefinition {
  /** Refine resource name; also the prefix of locally stored choices. */
  name: string;
  labelKey: Label;
  /** Icon name from the console's icon registry. */
  icon: string;
  /** The /api collection path, with its trailing slash (`/api/user/`). */
  api: string;
  /** The collection path for administrators (logs, tasks): others use `api`. */
  adminApi?: string;
  /** Console routes: the list, and the drawer routes that open on top of it. */
  routes: { list: string; create?: string; edit?: string };
  /** Lowest role that sees and reaches the resource (1 user, 10 admin, 100 root). */
  minRole: number;
  search?: SearchDef;
  endpoints?: Record<string, EndpointDef>;
  columns: ColumnDef[];
  /** Absent: no create/edit drawer. */
  form?: FormDef;
  rowActions?: RowActionDef[];
  batchActions?: BatchActionDef[];
  toolbarActions?: ToolbarActionDef[];
  /** Rows that can be selected for batch actions (default all). */
  selectableWhen?: Conditions;
  /** Rows where this field is set are labelled deleted and offer no action. */
  softDelete?: { field: string; labelKey: Label };
  messages?: { created?: Label; updated?: Label };
  /** The create button's label (default: a generic "add"). */
  createLabelKey?: Label;
  /** After a create whose reply is a list of strings, show them in a dialog to copy. */
  createdListTitleKey?: Label;
  /** Rows open in place to show more (the usage log's billing breakdown). */
  expand?: ExpandDef;
  toggles?: ListToggleDef[];
  stats?: StatsDef;
  download?: DownloadDef;
  /** A notice above the list. */
  banner?: { type: 'info' | 'warning'; textKey: Label };
  /** No create/edit drawer route, and no column chooser when false. */
  columnChooser?: boolean;
  /** Page sizes offered (default 10, 20, 50, 100). */
  pageSizes?: number[];
}

/** Identity helper that type-checks a declaration. */
export function defineResource(definition: ResourceDefinition): ResourceDefinition {
  return definition;
}
