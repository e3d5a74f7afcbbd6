/** The centred card the sign-in, registration and reset screens share. */
import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { DEFAULT_LOGO } from '../../state/public-status';
import { usePublicStatus } from '../../state/status-context';

export function AccountCard({ title, children }: { title: string; children: ReactNode }) {
  const status = usePublicStatus();
  return (
    <div className="sy-account">
      <Card className="sy-account-card">
        <div className="sy-account-head">
          <img src={status.logo || DEFAULT_LOGO} alt="" width={40} height={40} />
          <Typography.Title level={3} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        </div>
        {children}
      </Card>
    </div>
  );
}
