/**
 * Keeps dayjs's language (dates the signed-in screens format, antd's date pickers) the
 * console's. Only the signed-in screens use dayjs: it and its Chinese locale load with them.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { useTranslation } from './use-translation';

export function useDayjsLocale(): void {
  const { i18n } = useTranslation();
  const zh = i18n.language !== 'en';
  useEffect(() => {
    dayjs.locale(zh ? 'zh-cn' : 'en');
  }, [zh]);
}
