import { describe, expect, it } from 'vitest';
import { minimumAmount, payFormFields, topUpRefusal } from './wallet-model';

describe('wallet rules', () => {
  it('refuses a top-up when payment is off or the amount is below the minimum', () => {
    expect(topUpRefusal({ enabled: false, amount: 10, min: 1 })).toBe('disabled');
    expect(topUpRefusal({ enabled: true, amount: 4, min: 5 })).toBe('belowMin');
    expect(topUpRefusal({ enabled: true, amount: 0, min: 0 })).toBe('belowMin');
    expect(topUpRefusal({ enabled: true, amount: null, min: 1 })).toBe('belowMin');
    expect(topUpRefusal({ enabled: true, amount: 5, min: 5 })).toBeUndefined();
  });

  it('offers at least 1 as the minimum', () => {
    expect(minimumAmount(undefined)).toBe(1);
    expect(minimumAmount(0)).toBe(1);
    expect(minimumAmount(20)).toBe(20);
  });

  it('reads the pay form only from a successful reply', () => {
    expect(payFormFields({ message: 'success', url: 'https://pay/submit.php', data: { pid: '1', money: '7.30' } })).toEqual([
      ['pid', '1'],
      ['money', '7.30'],
    ]);
    expect(payFormFields({ message: 'error', data: '当前管理员未配置支付信息' })).toEqual([]);
    expect(payFormFields({ message: 'success', data: { a: 1 } })).toEqual([]);
  });
});
