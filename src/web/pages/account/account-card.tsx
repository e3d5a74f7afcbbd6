/**
 * The centred card the sign-in, registration and reset screens share. A plain box drawn
 * with the theme's tokens as antd's bordered Card draws it: the Card module brings Tabs
 * (and their menus) along, which the sign-in page would otherwise have to load.
 */
import { theme } from 'antd';
import type { ReactNode } from 'react';
import { PlainTitle } from '../../components/plain-typography';
import { SiteLogo } from '../../components/site-brand';

export function AccountCard({ title, children }: { title: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div className="sy-account">
      <div
        className="sy-account-card"
        style={{
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          padding: token.paddingLG,
          color: token.colorText,
          fontSize: token.fontSize,
          lineHeight: token.lineHeight,
          fontFamily: token.fontFamily,
        }}
      >
        <div className="sy-account-head">
          <SiteLogo size={40} />
          <PlainTitle level={3} style={{ margin: 0 }}>
            {title}
          </PlainTitle>
        </div>
        {children}
      </div>
    </div>
  );
}
