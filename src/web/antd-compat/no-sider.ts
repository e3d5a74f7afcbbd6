/**
 * What antd's `useHasSider` compares a Layout's children with, in place of the real Sider
 * (vite.config.ts): a component no element has, so a Layout without `hasSider` finds none
 * among its children. Our layout passes `hasSider` wherever a Sider is a child
 * (layout/app-layout.tsx), and a mounted Sider still registers itself with its Layout, so the
 * real Sider (with its icons and styles) loads only for signed-in users.
 */
export default function NoSider(): null {
  return null;
}
