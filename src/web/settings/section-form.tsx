/**
 * The `SectionForm` component is the one RJSF form of the settings page: it renders any
 * section of the model (schema and uiSchema built from its schema file) with the widgets
 * registered by name. No section has form code of its own.
 */
import { generateForm } from '@rjsf/antd';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useMemo } from 'react';
import type { SettingsFormContext } from './form-context';
import type { FormValues } from './form-values';
import type { SectionModel } from './settings-model';
import type { SectionForm as SectionFormState } from './use-section-form';
import { SETTINGS_WIDGETS } from './widgets';
import { FieldsGridTemplate } from './widgets/fields-grid-template';

const TEMPLATES = { ObjectFieldTemplate: FieldsGridTemplate };

/** The antd-themed form, its generics pinned once. */
const Form = generateForm<FormValues, RJSFSchema, SettingsFormContext>();

export function SectionForm({ section, form }: { section: SectionModel; form: SectionFormState }) {
  const context = useMemo<SettingsFormContext>(
    () => ({ section, values: form.values, patch: form.patch, secretsSet: form.secretsSet, descriptionLocation: 'below' }),
    [section, form.values, form.patch, form.secretsSet],
  );
  return (
    <Form
      className="sy-settings-form"
      idPrefix={section.id}
      schema={section.schema}
      uiSchema={section.uiSchema}
      formData={form.values}
      formContext={context}
      widgets={SETTINGS_WIDGETS}
      templates={TEMPLATES}
      validator={validator}
      customValidate={form.customValidate}
      transformErrors={form.transformErrors}
      extraErrors={form.errors}
      showErrorList={false}
      noHtml5Validate
      onChange={(e) => form.setValues(e.formData ?? {})}
      onSubmit={() => void form.save()}
    >
      <></>
    </Form>
  );
}
