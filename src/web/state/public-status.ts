/**
 * The public status (`GET /api/status`, docs/console.md#public-status): fetched at start, kept locally under
 * `status`, and a few fields mirrored under their own keys (docs/console.md#locally-stored-items).
 */
import { readJson, STATUS_MIRRORED_KEYS, STORAGE_KEYS, writeJson, writeText } from '../storage';

export interface ChatLink {
  [name: string]: string;
}

export interface PublicStatus {
  system_name?: string;
  logo?: string;
  footer_html?: string;
  version?: string;
  start_time?: number;
  quota_per_unit?: number;
  display_in_currency?: boolean;
  docs_link?: string;
  top_up_link?: string;
  chat_link?: string;
  chats?: ChatLink[];
  enable_drawing?: boolean;
  enable_task?: boolean;
  enable_data_export?: boolean;
  data_export_default_time?: string;
  default_collapse_sidebar?: boolean;
  mj_notify_enabled?: boolean;
  self_use_mode_enabled?: boolean;
  demo_site_enabled?: boolean;
  email_verification?: boolean;
  turnstile_check?: boolean;
  turnstile_site_key?: string;
  github_oauth?: boolean;
  github_client_id?: string;
  linuxdo_oauth?: boolean;
  linuxdo_client_id?: string;
  oidc_enabled?: boolean;
  oidc_client_id?: string;
  oidc_authorization_endpoint?: string;
  wechat_login?: boolean;
  wechat_qrcode?: string;
  telegram_oauth?: boolean;
  telegram_bot_name?: string;
  server_address?: string;
  [key: string]: unknown;
}

export const DEFAULT_SYSTEM_NAME = 'Switchyard';
export const DEFAULT_LOGO = '/logo.svg';

export function readStoredStatus(): PublicStatus {
  return readJson<PublicStatus>(STORAGE_KEYS.status) ?? {};
}

export function storeStatus(status: PublicStatus): void {
  writeJson(STORAGE_KEYS.status, status);
  for (const key of STATUS_MIRRORED_KEYS) {
    const value = status[key];
    if (value === undefined) continue;
    writeText(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
}
