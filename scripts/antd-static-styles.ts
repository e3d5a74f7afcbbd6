/**
 * A Vite plugin that writes the styles of the antd components the console uses, in its light
 * theme, into a CSS file of the build, linked from index.html.
 *
 * antd makes its styles at run time (CSS-in-JS): the first time a page shows a component, it
 * builds that component's style object, serialises it and inserts a `<style>` element, which
 * makes the browser recompute styles. On a cold load that was about a fifth of the console's
 * main-thread time (sign-in form, channel list). The file carries, besides the styles, antd's
 * own record of which styles it holds (`.data-ant-cssinjs-cache-path{content:"…"}`): antd reads
 * it once and skips making any style listed there. Styles not in the file (the dark theme,
 * a component rendered here in a way that registers fewer of its parts) are made at run time as
 * before, so a miss costs time, never looks.
 *
 * The styles are rendered here with react-dom/server under the console's own theme
 * (`src/web/theme.ts`), so their keys match the console's.
 */
import { createHash } from 'node:crypto';
import type { ReactElement } from 'react';
import type { Plugin } from 'vite';

/** Renders the components whose styles go into the file, each alone (one that throws costs only its own styles). */
async function componentStyles(): Promise<string> {
  const [{ createElement: h }, { renderToString }, antd, cssinjs, { themeConfig }] = await Promise.all([
    import('react'),
    import('react-dom/server'),
    import('antd'),
    import('@ant-design/cssinjs'),
    import('../src/web/theme.ts'),
  ]);
  const cache = cssinjs.createCache();
  const { Form, Input, Typography, Layout } = antd;
  // The components of src/web and resources/ (and those refine's antd screens use), each with
  // what it needs to render its parts; popups register their styles from the trigger.
  const elements: ReactElement[] = [
    h(antd.App, null, 'x'),
    h(Layout, null, h(Layout.Header), h(Layout.Sider), h(Layout.Content), h(Layout.Footer)),
    h(antd.Menu, { items: [{ key: 'a', label: 'a', children: [{ key: 'b', label: 'b' }] }] }),
    h(antd.Button, null, 'x'),
    h(antd.Space, null, 'x'),
    h(antd.Space.Compact, null, 'x'),
    h(Input),
    h(Input.Password),
    h(Input.TextArea),
    h(Input.Search),
    h(antd.InputNumber),
    h(antd.AutoComplete),
    h(antd.Select, { options: [{ value: 'a' }] }),
    h(antd.DatePicker),
    h(antd.DatePicker.RangePicker),
    h(antd.Checkbox, null, 'x'),
    h(antd.Radio.Group, { options: ['a'] }),
    h(antd.Switch),
    h(antd.Slider),
    h(antd.Segmented, { options: ['a', 'b'] }),
    h(Form, null, h(Form.Item, { label: 'x', name: 'x', help: 'x' }, h(Input))),
    h(Typography.Title, null, 'x'),
    h(Typography.Text, { copyable: true }, 'x'),
    h(Typography.Paragraph, { ellipsis: true }, 'x'),
    h(antd.Card, { title: 'x' }, 'x'),
    h(antd.Tag, null, 'x'),
    h(antd.Tag, { color: 'blue' }, 'x'),
    // A ConfigProvider inside the theme's (as the console's feedback holders have) registers the icons' base style under the theme.
    h(antd.ConfigProvider, null, 'x'),
    h(antd.Badge, { count: 1 }),
    h(antd.Avatar, null, 'x'),
    h(antd.Spin),
    h(antd.Skeleton),
    h(antd.Row, null, h(antd.Col, { span: 12 }, 'x')),
    h(antd.Divider),
    h(antd.Empty),
    h(antd.Alert, { message: 'x' }),
    h(antd.Result, { title: 'x' }),
    h(antd.Statistic, { value: 1 }),
    h(antd.Progress, { percent: 50 }),
    h(antd.Descriptions, { items: [{ key: 'a', label: 'a', children: 'a' }] }),
    h(antd.List, { dataSource: ['a'], renderItem: (item: unknown) => h(antd.List.Item, null, String(item)) }),
    h(antd.Collapse, { items: [{ key: 'a', label: 'a', children: 'a' }] }),
    h(antd.Tabs, { items: [{ key: 'a', label: 'a', children: 'a' }] }),
    h(antd.Image, { src: '/logo.svg' }),
    h(antd.Table, {
      dataSource: [{ key: 1, a: 1 }],
      columns: [{ key: 'a', dataIndex: 'a', title: 'a', sorter: true, filters: [{ text: 'a', value: 'a' }] }],
      rowSelection: {},
      pagination: { total: 100 },
    }),
    h(antd.Pagination, { total: 100, showSizeChanger: true, showQuickJumper: true }),
    h(antd.Tooltip, { title: 'x' }, h('span', null, 'x')),
    h(antd.Popover, { content: 'x' }, h('span', null, 'x')),
    h(antd.Popconfirm, { title: 'x' }, h('span', null, 'x')),
    h(antd.Dropdown, { menu: { items: [{ key: 'a', label: 'a' }] } }, h('span', null, 'x')),
    h(antd.Modal, { open: false }),
    h(antd.Drawer, { open: false }),
    h(antd.Upload, null, 'x'),
  ];
  const provider = (child: ReactElement) => h(cssinjs.StyleProvider, { cache }, h(antd.ConfigProvider, { theme: themeConfig('light') }, child));
  for (const element of elements) {
    try {
      renderToString(provider(element));
    } catch {
      // Rendered on the server only to register its styles: one that needs a browser is made at run time.
    }
  }
  return cssinjs.extractStyle(cache, { plain: true, types: ['style', 'token'] });
}

export function antdStaticStyles(): Plugin {
  let fileName = '';
  return {
    name: 'switchyard-antd-static-styles',
    apply: 'build',
    async buildStart() {
      // The class names antd gives in production (`css-<hash>`, not the development prefix).
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      let css: string;
      try {
        css = await componentStyles();
      } finally {
        process.env.NODE_ENV = nodeEnv;
      }
      fileName = `assets/antd-${createHash('sha256').update(css).digest('base64url').slice(0, 8)}.css`;
      this.emitFile({ type: 'asset', fileName, source: css });
    },
    transformIndexHtml() {
      return [{ tag: 'link', attrs: { rel: 'stylesheet', href: `/${fileName}` }, injectTo: 'head-prepend' }];
    },
  };
}
