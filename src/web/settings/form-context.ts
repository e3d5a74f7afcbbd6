/**
 * What a settings section hands its widgets through RJSF's `formContext`: the section, its
 * current values, a way to set other keys of the section (the OIDC fetch button fills the
 * endpoints), and which secrets hold a value on the server.
 */
import type { FormContextType, RJSFSchema, WidgetProps } from '@rjsf/utils';
import type { FormValues } from './form-values';
import type { SectionModel } from './settings-model';

export interface SettingsFormContext extends FormContextType {
  section: SectionModel;
  values: FormValues;
  /** Sets values of this section by field name. */
  patch: (values: FormValues) => void;
  /** Secrets with a stored value, by field name. */
  secretsSet: Record<string, boolean>;
  /** Read by the antd theme's field template. */
  descriptionLocation: 'below';
}

/** A settings widget's props: RJSF's, pinned to our form values and context. */
export type SettingsWidgetProps = WidgetProps<FormValues, RJSFSchema, SettingsFormContext>;

export function settingsContext(props: SettingsWidgetProps): SettingsFormContext {
  return props.registry.formContext;
}
