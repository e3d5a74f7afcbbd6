/**
 * The `json` widget: a JSON text in a monospace editor. On blur the text is checked (the
 * message "<title>不是合法的 JSON 字符串") and, when it parses, pretty-printed.
 */
import { Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../use-translation';
import type { SettingsWidgetProps } from '../form-context';
import { isJson, prettyJson } from '../form-values';
import { useApp } from '../../state/feedback-app';

export function JsonWidget({ id, value, label, disabled, readonly, placeholder, onChange, onBlur, rawErrors }: SettingsWidgetProps) {
  const { t } = useTranslation();
  const { message } = useApp();
  const [invalid, setInvalid] = useState(false);
  const text = typeof value === 'string' ? value : '';

  const blur = () => {
    const ok = isJson(text);
    setInvalid(!ok);
    if (!ok) void message.error(t('settings.jsonInvalid', { title: label }));
    else if (prettyJson(text) !== text) onChange(prettyJson(text));
    onBlur(id, text);
  };

  return (
    <Input.TextArea
      id={id}
      className="sy-mono"
      value={text}
      placeholder={placeholder}
      disabled={disabled || readonly}
      autoSize={{ minRows: 4, maxRows: 18 }}
      status={invalid || rawErrors?.length ? 'error' : undefined}
      spellCheck={false}
      onChange={(e) => {
        setInvalid(false);
        onChange(e.target.value);
      }}
      onBlur={blur}
    />
  );
}
