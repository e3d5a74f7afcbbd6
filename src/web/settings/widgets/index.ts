/**
 * The settings widget registry: every widget name of the `x-ui` vocabulary (and the
 * defaults by type) to its component, registered once. The record's type makes a name the
 * model can produce without a widget a compile error.
 */
import type { RegistryWidgetsType, RJSFSchema } from '@rjsf/utils';
import { Widgets as AntdWidgets } from '@rjsf/antd';
import type { FormValues } from '../form-values';
import type { SettingsFormContext } from '../form-context';
import type { WidgetName } from '../settings-model';
import { ActionWidget } from './action-widget';
import { PasswordWidget, QuotaWidget, TextWidget, UpDownWidget } from './input-widgets';
import { JsonWidget } from './json-widget';
import { LinesWidget, SeparatedListWidget } from './list-widget';
import { SwitchWidget } from './switch-widget';

type Widgets = RegistryWidgetsType<FormValues, RJSFSchema, SettingsFormContext>;

const BY_NAME: Record<WidgetName, Widgets[string]> = {
  text: TextWidget,
  textarea: AntdWidgets.TextareaWidget,
  select: AntdWidgets.SelectWidget,
  switch: SwitchWidget,
  updown: UpDownWidget,
  json: JsonWidget,
  lines: LinesWidget,
  list: SeparatedListWidget,
  quota: QuotaWidget,
  password: PasswordWidget,
  action: ActionWidget,
};

export const SETTINGS_WIDGETS: Widgets = BY_NAME;
