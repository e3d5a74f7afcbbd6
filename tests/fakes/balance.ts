/**
 * The balance APIs of the fixed-host providers on one fake server (127.0.0.1, ephemeral
 * port), in their wire formats: AIProxy `GET /api/report/getUserOverview` (`Api-Key`
 * header), API2GPT and AIGC2D `GET /dashboard/billing/credit_grants` (one route answering
 * both fields, so a test can tell which one was read), SiliconFlow `GET /v1/user/info` and
 * DeepSeek `GET /user/balance` (Bearer). `fake.values` sets the numbers; a wrong key gets
 * each provider's refusal. Channels reach it through their base URL.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BalanceValues {
  aiproxyPoints: number;
  api2gptRemaining: number;
  aigc2dAvailable: number;
  /** SiliconFlow sends its balance as a string. */
  siliconflowBalance: string;
  /** DeepSeek balances per currency (strings, as DeepSeek sends them). */
  deepseek: Array<{ currency: string; total_balance: string }>;
}

export interface FakeBalance {
  url: string;
  key: string;
  values: BalanceValues;
  /** Paths asked, in order. */
  paths: string[];
  close(): Promise<void>;
}

export async function startFakeBalance(key = 'sk-balance-good'): Promise<FakeBalance> {
  const paths: string[] = [];
  const values: BalanceValues = {
    aiproxyPoints: 88.5,
    api2gptRemaining: 12.25,
    aigc2dAvailable: 7.75,
    siliconflowBalance: '14.3',
    deepseek: [
      { currency: 'USD', total_balance: '3.00' },
      { currency: 'CNY', total_balance: '42.10' },
    ],
  };
  const bearerOk = (req: IncomingMessage) => req.headers.authorization === `Bearer ${key}`;
  const answers: Record<string, (req: IncomingMessage) => [number, unknown]> = {
    '/api/report/getUserOverview': (req) =>
      req.headers['api-key'] === key
        ? [200, { success: true, message: '', error_code: 0, data: { totalPoints: values.aiproxyPoints } }]
        : [200, { success: false, message: 'invalid key', error_code: 401, data: null }],
    '/dashboard/billing/credit_grants': (req) =>
      bearerOk(req) ? [200, { object: 'credit_summary', total_remaining: values.api2gptRemaining, total_available: values.aigc2dAvailable }] : [401, { error: 'unauthorized' }],
    '/v1/user/info': (req) =>
      bearerOk(req)
        ? [200, { code: 20000, message: 'OK', status: true, data: { id: 'u1', totalBalance: values.siliconflowBalance, balance: values.siliconflowBalance } }]
        : [200, { code: 50001, message: 'Invalid token', status: false, data: null }],
    '/user/balance': (req) => (bearerOk(req) ? [200, { is_available: true, balance_infos: values.deepseek }] : [401, { error: { message: 'Authentication Fails' } }]),
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    paths.push(path);
    const answer = req.method === 'GET' ? answers[path] : undefined;
    const [status, body] = answer ? answer(req) : [404, { error: 'not found' }];
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    values,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
