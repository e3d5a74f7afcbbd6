/** Dark or light, kept locally (docs/console.md#language-and-theme). */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { readText, STORAGE_KEYS, writeText } from '../storage';

export type ThemeMode = 'light' | 'dark';

interface ThemeState {
  mode: ThemeMode;
  toggle: () => void;
}

const ThemeContext = createContext<ThemeState>({ mode: 'light', toggle: () => undefined });

function storedMode(): ThemeMode {
  return readText(STORAGE_KEYS.theme) === 'dark' ? 'dark' : 'light';
}

export function ThemeModeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ThemeMode>(storedMode);
  const toggle = useCallback(() => setMode((m) => (m === 'dark' ? 'light' : 'dark')), []);
  useEffect(() => {
    writeText(STORAGE_KEYS.theme, mode);
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);
  return <ThemeContext.Provider value={{ mode, toggle }}>{children}</ThemeContext.Provider>;
}

export function useThemeMode(): ThemeState {
  return useContext(ThemeContext);
}
