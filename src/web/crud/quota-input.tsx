/**
 * A quota field: an integer of quota units with its currency value beside it, and (when
 * declared) the dialog that adds a signed amount to the current value (docs/console.md#lists-and-forms).
 */
import { PlusOutlined } from '@ant-design/icons';
import { Button, InputNumber, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../use-translation';
import { usePublicStatus } from '../state/status-context';
import { quotaToCurrency, quotaView } from './quota-format';

interface QuotaInputProps {
  value?: number;
  onChange?: (value: number | null) => void;
  adjustDialog?: boolean;
  placeholder?: string;
  id?: string;
}

export function QuotaInput({ value, onChange, adjustDialog, placeholder, id }: QuotaInputProps) {
  const { t } = useTranslation();
  const view = quotaView(usePublicStatus());
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<number | null>(null);
  const current = Number(value ?? 0);

  const apply = () => {
    onChange?.(current + Number(amount ?? 0));
    setOpen(false);
    setAmount(null);
  };

  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <InputNumber<number> id={id} value={value} onChange={(v) => onChange?.(v)} precision={0} placeholder={placeholder} style={{ width: '100%' }} addonAfter={quotaToCurrency(current, view)} />
        {adjustDialog && (
          <Button icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="quota-adjust">
            {t('quota.adjust')}
          </Button>
        )}
      </Space.Compact>
      <Modal open={open} title={t('quota.adjustTitle')} onOk={apply} onCancel={() => setOpen(false)} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
        <Space direction="vertical" style={{ width: '100%' }}>
          <InputNumber<number> autoFocus value={amount} onChange={setAmount} precision={0} placeholder={t('quota.amountPlaceholder')} style={{ width: '100%' }} data-testid="quota-amount" />
          <Typography.Text type="secondary">
            {t('quota.preview', {
              current: current.toLocaleString('en-US'),
              amount: Number(amount ?? 0).toLocaleString('en-US'),
              total: (current + Number(amount ?? 0)).toLocaleString('en-US'),
              currency: quotaToCurrency(current + Number(amount ?? 0), view),
            })}
          </Typography.Text>
        </Space>
      </Modal>
    </>
  );
}
