/**
 * The signed-in user's full record from the server (GET /api/user/self): balance, usage,
 * bindings, invitation figures. Pages call `reload` after each change they make. What only
 * decides what to show (role, name) comes from the stored user instead (use-stored-user).
 */
import { useApp } from './feedback-app';
import { useCallback, useEffect, useState } from 'react';
import type { StoredUser } from '../auth-provider';
import { api } from './wire';

export interface SelfRecord extends StoredUser {
  email: string;
  quota: number;
  used_quota: number;
  request_count: number;
  github_id: string;
  oidc_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  access_token: string | null;
  /** The notification settings as JSON text ('' when never saved). */
  setting: string;
}

export function useSelf(): { self: SelfRecord | undefined; reload: () => void } {
  const { message } = useApp();
  const [self, setSelf] = useState<SelfRecord>();
  const reload = useCallback(() => {
    api
      .request<SelfRecord>('get', '/api/user/self')
      .then(setSelf)
      .catch((err: Error) => void message.error(err.message));
  }, [message]);
  useEffect(reload, [reload]);
  return { self, reload };
}
