// What the console's build (`npm run build:web`, dist/web) is made from: `npm start` and the
// benchmark rebuild it when any of these is newer than dist/web/index.html.
export const WEB_BUILD_SOURCES = [
  'index.html',
  'src/web',
  'src/shared',
  'resources',
  'schemas',
  'vite.config.ts',
  'scripts/antd-static-styles.ts',
  'scripts/precompress.ts',
  'scripts/prerender-login.ts',
  'package.json',
];
