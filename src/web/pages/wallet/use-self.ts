/** The signed-in user's own record (`GET /api/user/self`): balance, usage, group. */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../state/wire';
import { useApp } from '../../state/feedback-app';

export interface SelfRecord {
  id: number;
  username: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
}

export function useSelf(): { self: SelfRecord | undefined; reload: () => void } {
  const { message } = useApp();
  const [self, setSelf] = useState<SelfRecord | undefined>();
  const reload = useCallback(() => {
    api
      .request<SelfRecord>('get', '/api/user/self')
      .then(setSelf)
      .catch((err: Error) => void message.error(err.message));
  }, [message]);
  useEffect(reload, [reload]);
  return { self, reload };
}
