/** The audit log's before → after: secrets masked, proxy credentials in a channel's setting too. */
import { describe, expect, it } from 'vitest';
import { changedFields, SECRET_MASK } from '../../src/server/services/audit/audit.changes';

describe('audit changes', () => {
  it('mask keys and the credentials of a proxy address, keep the rest readable', () => {
    const before = { name: 'a', key: 'sk-old', setting: '{"proxy":""}' };
    const after = { name: 'b', key: 'sk-new', setting: '{"proxy":"socks5://user:s3cret@10.0.0.1:1080"}' };
    const changes = changedFields(before, after);
    expect(changes.after).toEqual({ name: 'b', key: SECRET_MASK, setting: `{"proxy":"socks5://${SECRET_MASK}@10.0.0.1:1080"}` });
    expect(JSON.stringify(changes)).not.toContain('s3cret');
    expect(changes.before).toEqual({ name: 'a', key: SECRET_MASK, setting: '{"proxy":""}' });
  });
});
