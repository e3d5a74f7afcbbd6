/**
 * antd's Typography.Text and Typography.Title for plain text (no copy, edit or ellipsis), as
 * the console's frame and account pages use them: the same element, class names and styles
 * (antd's Typography container, which Text and Title render through, with its style), without
 * Text's and Title's copy button, editor and ellipsis measurer, which bring Tooltip, TextArea
 * and a positioning engine to every first page.
 */
import { ConfigContext } from 'antd/es/config-provider';
import Typography, { type TypographyProps } from 'antd/es/typography/Typography';
import { useContext, type ComponentType, type CSSProperties, type ReactNode } from 'react';

// The container takes the element to render as `component` (as Text and Title pass it),
// which its declared props leave out.
const Container = Typography as ComponentType<TypographyProps<'span'> & { component: string }>;

interface PlainProps {
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
}

function useClassName(modifier: string | undefined, className: string | undefined): string | undefined {
  const prefixCls = useContext(ConfigContext).getPrefixCls('typography');
  return [modifier && `${prefixCls}-${modifier}`, className].filter(Boolean).join(' ') || undefined;
}

/** Typography.Text: `type` colours it, `strong` wraps it in <strong>, as antd does. */
export function PlainText({ type, strong, className, style, children }: PlainProps & { type?: 'secondary' | 'success' | 'warning' | 'danger'; strong?: boolean }) {
  return (
    <Container component="span" className={useClassName(type, className)} style={style}>
      {strong ? <strong>{children}</strong> : children}
    </Container>
  );
}

/** Typography.Title of `level` (an h1 … h5). */
export function PlainTitle({ level, className, style, children }: PlainProps & { level: 1 | 2 | 3 | 4 | 5 }) {
  return (
    <Container component={`h${level}`} className={useClassName(undefined, className)} style={style}>
      {children}
    </Container>
  );
}
