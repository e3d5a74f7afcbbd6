/**
 * /topup, my wallet (docs/console.md#wallet-page): the balance and usage, redeeming a code, and
 * online top-up.
 */
import { Card, Col, Row, Space, Statistic } from 'antd';
import { useTranslation } from '../../use-translation';
import { displayQuota, quotaView } from '../../crud/quota-format';
import { usePublicStatus } from '../../state/status-context';
import { OnlineTopUpCard } from './online-topup-card';
import { RedeemCard } from './redeem-card';
import { useSelf } from '../../state/use-self';

export function WalletPage() {
  const { t } = useTranslation();
  const view = quotaView(usePublicStatus());
  const { self, reload } = useSelf();
  const stat = (titleKey: string, value: string | number | undefined, testId: string) => (
    <Col xs={24} sm={8}>
      <Card>
        <Statistic title={t(titleKey)} value={value ?? '-'} data-testid={testId} />
      </Card>
    </Col>
  );
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        {stat('wallet.balance', self ? displayQuota(self.quota, view) : undefined, 'wallet-balance')}
        {stat('wallet.used', self ? displayQuota(self.used_quota, view) : undefined, 'wallet-used')}
        {stat('wallet.requests', self?.request_count, 'wallet-requests')}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <RedeemCard onRedeemed={reload} />
        </Col>
        <Col xs={24} lg={12}>
          <OnlineTopUpCard />
        </Col>
      </Row>
    </Space>
  );
}
