/**
 * The `FieldsGridTemplate` is the object template of every settings section: the section's
 * fields on a responsive grid, two columns on wide screens for short inputs, the full width
 * for editors (JSON, lists, long text). The section card carries the title, so none here.
 */
import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { Col, Row } from 'antd';
import type { WidgetName } from '../settings-model';

const WIDE: ReadonlySet<WidgetName> = new Set(['json', 'lines', 'list', 'textarea']);

export function FieldsGridTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  const wide = (name: string) => properties.length < 2 || WIDE.has(uiSchema?.[name]?.['ui:widget'] as WidgetName);
  return (
    <Row gutter={24}>
      {properties
        .filter((p) => !p.hidden)
        .map((p) => (
          <Col key={p.name} xs={24} lg={wide(p.name) ? 24 : 12}>
            {p.content}
          </Col>
        ))}
    </Row>
  );
}
