/**
 * The console's antd theme, in one place for the two that must agree on it to the byte: the
 * running console (`app.tsx`) and the build, which writes the light theme's component styles
 * into a CSS file (`scripts/antd-static-styles.ts`). antd keys its styles by a hash of the
 * theme's tokens; a difference here only means the console makes those styles at run time.
 */
import { theme, type ThemeConfig } from 'antd';
import type { ThemeMode } from './state/theme-context';

/**
 * The console's one font stack, for antd's components and the page (styles.css says it again
 * for the body; a unit test holds the two equal). Few families: a browser looks each one up
 * for text a font before it lacks (Chinese, in most fonts), and antd's own stack of twelve
 * cost the sign-in page's first layout ~30 lookups of fonts most machines do not have.
 */
export const FONT_FAMILY = "system-ui, 'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif";

const LIGHT: ThemeConfig = { algorithm: theme.defaultAlgorithm, token: { colorPrimary: '#2563eb', borderRadius: 8, fontFamily: FONT_FAMILY } };
const DARK: ThemeConfig = { ...LIGHT, algorithm: theme.darkAlgorithm };

export function themeConfig(mode: ThemeMode): ThemeConfig {
  return mode === 'dark' ? DARK : LIGHT;
}
