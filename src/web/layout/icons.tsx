/**
 * Icons by name, so declarations (resources, navigation) can name one without importing
 * React. Unknown names fall back to a neutral icon.
 */
import {
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  CommentOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  GiftOutlined,
  IdcardOutlined,
  KeyOutlined,
  PictureOutlined,
  ProfileOutlined,
  ApiOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

const ICONS: Record<string, ReactNode> = {
  playground: <ExperimentOutlined />,
  chat: <CommentOutlined />,
  dashboard: <BarChartOutlined />,
  key: <KeyOutlined />,
  log: <FileTextOutlined />,
  picture: <PictureOutlined />,
  task: <ScheduleOutlined />,
  channel: <ApiOutlined />,
  gift: <GiftOutlined />,
  user: <TeamOutlined />,
  setting: <SettingOutlined />,
  wallet: <WalletOutlined />,
  profile: <IdcardOutlined />,
  list: <ProfileOutlined />,
  audit: <AuditOutlined />,
};

export function iconByName(name: string): ReactNode {
  return ICONS[name] ?? <AppstoreOutlined />;
}
