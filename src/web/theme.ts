/**
 * The console's antd theme, in one place for the two that must agree on it to the byte: the
 * running console (`app.tsx`) and the build, which writes the light theme's component styles
 * into a CSS file (`scripts/antd-static-styles.ts`). antd keys its styles by a hash of the
 * theme's tokens; a difference here only means the console makes those styles at run time.
 */
import { theme, type ThemeConfig } from 'antd';
import type { ThemeMode } from './state/theme-context';

const LIGHT: ThemeConfig = { algorithm: theme.defaultAlgorithm, token: { colorPrimary: '#2563eb', borderRadius: 8 } };
const DARK: ThemeConfig = { ...LIGHT, algorithm: theme.darkAlgorithm };

export function themeConfig(mode: ThemeMode): ThemeConfig {
  return mode === 'dark' ? DARK : LIGHT;
}
