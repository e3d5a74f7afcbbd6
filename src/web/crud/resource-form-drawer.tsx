/**
 * The one Create/Edit drawer: fields, groups, conditional fields and validation from the
 * declaration; loading, saving and server-side field errors through refine's `useForm`.
 */
import { useForm } from '@refinedev/antd';
import type { BaseKey, HttpError } from '@refinedev/core';
import { Button, Divider, Drawer, Form, Space, Spin } from 'antd';
import { useMemo, useRef } from 'react';
import { useLabel } from './use-label';
import type { ResourceDefinition } from '../../shared/resources/definition';
import type { FormMode } from '../../shared/resources/forms';
import { useIsMobile } from '../layout/use-is-mobile';
import { CreatedListDialog } from './created-list-dialog';
import { FormField } from './form-field';
import { FormScopeContext } from './form-scope';
import { followJsonKeys } from './form-json-keys';
import { defaultValues, fieldsFor, formValuesFromRecord, submittedValues, visibleFields } from './form-values';
import { useApp } from '../state/feedback-app';

interface ResourceFormDrawerProps {
  resource: ResourceDefinition;
  mode: FormMode;
  id?: BaseKey;
  onClose: () => void;
}

type Values = Record<string, unknown>;

export function ResourceFormDrawer({ resource, mode, id, onClose }: ResourceFormDrawerProps) {
  const t = useLabel();
  const isMobile = useIsMobile();
  const { message, modal } = useApp();
  const submitting = useRef(false);
  const fields = useMemo(() => fieldsFor(resource.form?.fields ?? [], mode), [resource, mode]);
  const { form, formProps, saveButtonProps, formLoading, onFinish } = useForm<Values, HttpError, Values>({
    resource: resource.name,
    action: mode,
    id,
    redirect: false,
    onMutationSuccess: ({ data }) => {
      // Generated codes come back as a list of strings: show them once, to copy.
      if (mode === 'create' && resource.createdListTitleKey && Array.isArray(data) && data.every((k) => typeof k === 'string')) {
        const name = String(form.getFieldValue('name') ?? '').trim() || resource.name;
        modal.info({ title: t(resource.createdListTitleKey), width: 560, content: <CreatedListDialog items={data as string[]} fileName={`${name}.txt`} />, okText: t('common.ok') });
      }
      onClose();
    },
    successNotification: () => ({ type: 'success', message: t((mode === 'create' ? resource.messages?.created : resource.messages?.updated) ?? 'crud.messages.saved') }),
    errorNotification: (error) => ({ type: 'error', message: error?.message ?? t('errors.unknown') }),
  });
  const values = (Form.useWatch([], form) ?? {}) as Values;
  const shown = visibleFields(fields, values);
  const groups = resource.form?.groups ?? [];
  const ungrouped = shown.filter((f) => !f.group || !groups.some((g) => g.key === f.group));
  const title = mode === 'create' ? t(resource.createLabelKey ?? 'crud.actions.create') : t('crud.actions.editTitle', { id });

  return (
    <Drawer
      open
      title={title}
      width={isMobile ? '100%' : (resource.form?.width ?? 520)}
      onClose={onClose}
      destroyOnHidden
      data-testid="resource-drawer"
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button {...saveButtonProps} type="primary" data-testid="drawer-submit">
            {t('common.submit')}
          </Button>
        </Space>
      }
    >
      <Spin spinning={formLoading}>
        <Form
          {...formProps}
          layout="vertical"
          initialValues={mode === 'create' ? defaultValues(fields) : formValuesFromRecord(fields, formProps.initialValues as Values | undefined)}
          onValuesChange={(changed, all) => {
            formProps.onValuesChange?.(changed, all);
            // A JSON key's field and its JSON text follow each other (form-json-keys.ts).
            const follow = followJsonKeys(fields, changed as Values, all as Values);
            if (follow) form.setFieldsValue(follow as Parameters<typeof form.setFieldsValue>[0]);
          }}
          onFinish={(all) => {
            // A second submit while the first is on its way is refused (docs/console.md#lists-and-forms).
            if (submitting.current) return void message.warning(t('crud.messages.duplicateSubmit'));
            submitting.current = true;
            return onFinish(submittedValues(fields, all as Values))
              .catch(() => undefined) // refine already showed the error
              .finally(() => {
                submitting.current = false;
              });
          }}
        >
          <FormScopeContext.Provider value={{ mode, id }}>
            {ungrouped.map((def) => (
              <FormField key={`${def.field}:${def.kind}`} def={def} />
            ))}
            {groups.map((group) => {
              const inGroup = shown.filter((f) => f.group === group.key);
              if (inGroup.length === 0) return null;
              return (
                <div key={group.key}>
                  <Divider orientation="left" plain>
                    {t(group.titleKey)}
                  </Divider>
                  {inGroup.map((def) => (
                    <FormField key={`${def.field}:${def.kind}`} def={def} />
                  ))}
                </div>
              );
            })}
          </FormScopeContext.Provider>
        </Form>
      </Spin>
    </Drawer>
  );
}
